// Package bridge brings registered MCP servers' tools into tai's agent
// (mcp.md's McpBridge): per-profile enablement, names of the form
// mcp_<server>_<tool>, pins that withhold added or redefined tools until a
// person approves them, lazy connections started on the first call and
// stopped when idle, results redacted and spilled past MCP_RESULT_MAX, and an
// audit row for every call. It also holds registration and the mcp_* agent
// tools.
package bridge

import (
	"context"
	"net/http"
	"os"
	"sync"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// DefaultIdle is how long an unused server connection stays open.
const DefaultIdle = 10 * time.Minute

// Bridge is the MCP bridge of one profile. It implements tools.Source over
// the vault's cached tool lists, so listing tools never starts a server.
type Bridge struct {
	Store   *vault.Store
	Profile string

	// Confirm shows a consent screen that is not a tool call: a server whose
	// command or URL now expands differently from what a person approved.
	// Nil refuses such servers.
	Confirm func(ctx context.Context, c tools.Consent) (bool, error)
	// LookupEnv reads tai's environment for ${VAR}; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Dir and Home answer ${workspaceFolder} and ${userHome}.
	Dir, Home string
	// Authorize may add headers (OAuth bearer tokens) to an HTTP server's
	// requests; nil adds none.
	Authorize func(ctx context.Context, server string, headers map[string]string) error
	// HTTPClient dials HTTP servers; nil means a default client.
	HTTPClient *http.Client

	// Idle, ConnectTimeout and CallTimeout default to DefaultIdle and the
	// MCP caps; tests shorten them.
	Idle, ConnectTimeout, CallTimeout time.Duration
	// Native names tools that bridged names must not take.
	Native func(name string) bool

	mu    sync.Mutex
	view  *view
	conns map[string]*conn
}

var _ tools.Source = (*Bridge)(nil)

func (b *Bridge) idle() time.Duration {
	if b.Idle > 0 {
		return b.Idle
	}
	return DefaultIdle
}

func (b *Bridge) callTimeout() time.Duration {
	if b.CallTimeout > 0 {
		return b.CallTimeout
	}
	return wire.CallTimeout
}

func (b *Bridge) lookupEnv(name string) (string, bool) {
	if b.LookupEnv != nil {
		return b.LookupEnv(name)
	}
	return os.LookupEnv(name)
}

// Tools lists the bridged tools of the profile's enabled servers, as last
// cached, without connecting to anything. Tools awaiting approval are left
// out; tools past a server's MCP_MAX_TOOLS are listed with Unoffered set.
func (b *Bridge) Tools() []*tools.Tool {
	v, err := b.current(context.Background())
	if err != nil {
		return nil
	}
	return v.tools
}

// Lookup finds a bridged tool by its tai-side name.
func (b *Bridge) Lookup(name string) (*tools.Tool, bool) {
	v, err := b.current(context.Background())
	if err != nil {
		return nil, false
	}
	bt, ok := v.byName[name]
	if !ok || bt.pending != "" {
		return nil, false
	}
	return bt.tool, true
}

// ForProfile returns a bridge like b for another profile, with its own
// connections.
func (b *Bridge) ForProfile(profile string) *Bridge {
	return &Bridge{Store: b.Store, Profile: profile, Confirm: b.Confirm, LookupEnv: b.LookupEnv, Dir: b.Dir,
		Home: b.Home, Authorize: b.Authorize, HTTPClient: b.HTTPClient, Idle: b.Idle,
		ConnectTimeout: b.ConnectTimeout, CallTimeout: b.CallTimeout, Native: b.Native}
}

// Close stops every server connection.
func (b *Bridge) Close() error {
	b.mu.Lock()
	conns := b.conns
	b.conns = nil
	b.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	return nil
}
