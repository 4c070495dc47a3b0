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
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
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
	// Subagents gives the GitHub resolver's agent pass its runner when the
	// caller brings none of its own (tai mcp add builds the profile's agent
	// then); called only when the deterministic pass finds nothing, nil
	// leaves that pass out.
	Subagents func(context.Context) (tools.Subagents, error)
	// LookupEnv reads tai's environment for ${VAR}; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Dir and Home answer ${workspaceFolder} and ${userHome}.
	Dir, Home string
	// Notice tells the person, one message at a time, what a server's
	// fresh tool list changed when it was started for a call: tools
	// withheld until reviewed, and definitions accepted under a notify pin
	// policy with their diff. Nil shows nothing.
	Notice func(string)
	// LogNotice tells the person of a line a server logged at error or
	// above (see logs.go), marked as the server's and rate-limited. Nil
	// shows nothing; the lines are kept either way.
	LogNotice func(string)
	// OnTaskDone, when set, lets a call whose tool runs as a task go to
	// the background once it has run for TaskBackground (default
	// DefaultTaskBackground): the model is told so at once, and
	// OnTaskDone gets the task's end (see background.go). Nil waits for
	// every task.
	OnTaskDone     func(TaskDone)
	TaskBackground time.Duration
	// Browser shows a login's authorization URL to the person (prints it
	// and opens a browser). Nil means nobody can log in here (served or
	// unattended hosts): mcp_login refuses and a 403 insufficient_scope is
	// never stepped up.
	Browser oauth.Browser
	// Paste, when set, reads the redirect URL a person pastes after a
	// login in a browser that cannot reach this machine (tai mcp login
	// --no-browser); the loopback listener still takes a redirect that
	// arrives.
	Paste func(ctx context.Context) (string, error)
	// AllowServer, when set, is the administrator's allowlist: a server it
	// refuses is neither registered nor started.
	AllowServer func(command string, args []string, url string) error
	// PolicyTools, when set, are the tools the administrator allows of a
	// server (name to definition digest), nil for no such pin: any other
	// tool, or another definition, is withheld (filteredByPolicy).
	PolicyTools func(command string, args []string, url string) map[string]string
	// Sandbox confines the stdio servers the bridge starts; nil runs them
	// unconfined (see confine.go).
	Sandbox *ServerSandbox
	// ClientMetadataURL is where tai's client ID metadata document is
	// served (the oauth_client_metadata_url setting): the client_id at
	// authorization servers that take one. Empty skips that method.
	ClientMetadataURL string
	// Transport, when set, reaches a server instead of its entry's own
	// command or URL when it returns one (tests: client.NewInMemory, no
	// subprocess); nil, or a nil answer, reaches the entry as it says.
	Transport func(e config.Entry) client.Transport
	// HTTPClient dials HTTP servers and authorization servers; nil means a
	// client of the bridge's own. OAuth bearer tokens are added on top.
	HTTPClient *http.Client

	// Idle, ConnectTimeout, CallTimeout and InstallTimeout default to
	// DefaultIdle and the MCP caps; tests shorten them.
	Idle, ConnectTimeout, CallTimeout, InstallTimeout time.Duration
	// Progress shows that a server's first start at registration is under
	// way (a package runner may be installing it): on a terminal
	// (ProgressTerminal) a spinner with the elapsed time, elsewhere a line
	// every 10 seconds. Nil shows nothing.
	Progress         io.Writer
	ProgressTerminal bool
	progressEvery    time.Duration // progressEvery unless a test shortens it
	// Native names tools that bridged names must not take.
	Native func(name string) bool
	// Roots, when set, is the workspace offered to servers (roots/list):
	// file:// URIs of the working directory and each added directory.
	// Nil declares no roots.
	Roots func() []wire.Root
	// Elicit and Sample answer a server's elicitation/create and
	// sampling/createMessage (in the stateless era, its input requests):
	// the bare result object, or an error. Each is shown to the person
	// first; nil declares neither capability to servers, so they never
	// ask. server names who asks; params are as it sent them, untrusted.
	Elicit, Sample func(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, error)
	// OnEvent receives what connected servers say of their own accord
	// (log lines, list changes, resource updates). It runs on the
	// connection's reading goroutine and must not block. Nil drops them.
	OnEvent func(Event)
	// AnyServer lets Resources and ReadResource reach every registered
	// server, enabled for the profile or not: set for a person's own
	// command at a shell (tai mcp resources, tai mcp read). The model and
	// the REPL reach enabled servers only.
	AnyServer bool

	// completions are the URL elicitations refused calls wait on.
	completions completions
	// streams are the GET event streams of HTTP connections.
	streams streams

	logs logBook

	// watches are the resources being followed (Watch), by server.
	watches watchBook

	mu    sync.Mutex
	view  *view
	conns map[string]*conn
	plain *http.Client // HTTPClient, or the bridge's own
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
	switch {
	case !ok:
		return nil, false
	case bt.filtered != "" && bt.enabled:
		// A person withheld it: the model is told so, and how it is
		// offered again, rather than that no such tool exists.
		return b.refusedTool(bt, "withheld by a filter"), true
	case bt.pending != "" && bt.enabled:
		// Withheld since it was offered (its server's list changed): the
		// model is told why rather than that no such tool exists.
		return b.refusedTool(bt, "withheld until reviewed"), true
	case bt.pending != "":
		return nil, false
	}
	return bt.tool, true
}

// refusedTool stands for a tool the bridge withholds (awaiting a person's
// review, or filtered out): calling it asks no approval and runs nothing,
// and the bridge's check refuses it (audited as refused) with a message
// saying why and what the person runs to offer it.
func (b *Bridge) refusedTool(bt *bound, why string) *tools.Tool {
	server, remote := bt.cached.Server, bt.cached.Tool
	return tools.Raw(tools.Tool{Name: bt.tool.Name, Description: why, Schema: json.RawMessage(`{"type":"object"}`),
		Group: "mcp", Server: server, Remote: remote, Safe: tools.AlwaysSafe},
		func(ctx context.Context, call tools.Call) (tools.Result, error) {
			return b.Call(ctx, server, remote, call.Args)
		})
}

// ForProfile returns a bridge like b for another profile, with its own
// connections: every setting is b's (TestForProfile_CopiesEverySetting
// holds it to every exported field), the state is new.
func (b *Bridge) ForProfile(profile string) *Bridge {
	return &Bridge{Store: b.Store, Profile: profile, Confirm: b.Confirm, Subagents: b.Subagents, LookupEnv: b.LookupEnv,
		Dir: b.Dir, Home: b.Home, Notice: b.Notice, LogNotice: b.LogNotice, OnTaskDone: b.OnTaskDone, TaskBackground: b.TaskBackground,
		Browser: b.Browser, Paste: b.Paste, AllowServer: b.AllowServer, PolicyTools: b.PolicyTools, Sandbox: b.Sandbox,
		ClientMetadataURL: b.ClientMetadataURL, Transport: b.Transport, HTTPClient: b.HTTPClient,
		Idle: b.Idle, ConnectTimeout: b.ConnectTimeout, CallTimeout: b.CallTimeout, InstallTimeout: b.InstallTimeout,
		Progress: b.Progress, ProgressTerminal: b.ProgressTerminal, progressEvery: b.progressEvery, Native: b.Native, Roots: b.Roots,
		Elicit: b.Elicit, Sample: b.Sample, OnEvent: b.OnEvent, AnyServer: b.AnyServer}
}

// Close stops every server connection.
func (b *Bridge) Close() error {
	b.mu.Lock()
	conns, plain := b.conns, b.plain
	b.conns, b.plain = nil, nil
	b.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	b.flushLogs()
	if plain != nil && plain != b.HTTPClient {
		plain.CloseIdleConnections()
	}
	return nil
}
