package serve

import (
	"context"
	"errors"
	"time"

	"tai/internal/agent"
	"tai/internal/llm"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Path is the one endpoint of the served protocol.
const Path = "/mcp"

// Limits of the HTTP leg that are not design caps.
const (
	// BodyTimeout bounds reading one request, headers and body, so a
	// client that drips them cannot hold a connection open.
	BodyTimeout = 30 * time.Second
	// MaxHeaderBytes bounds a request's headers; net/http answers 431 past it.
	MaxHeaderBytes = 64 << 10
	// ShutdownGrace is how long in-flight requests may run after SIGINT or
	// SIGTERM before their contexts are cancelled.
	ShutdownGrace = 10 * time.Second
	// MaxConversations bounds the chat conversations of one MCP session.
	MaxConversations = 32
)

// Options configure a Server.
type Options struct {
	// Key is the Bearer token every request must carry. Required.
	Key string
	// Tools are served in this order. Names must be unique.
	Tools []*Tool
	// Host builds the tool environments and agents of sessions; nil serves
	// tools that need no host (test fixtures, benchmarks).
	Host Host
	// Audit receives the row of each chat and completions call (the
	// native tools' rows are written by tools.Invoke); nil writes none.
	Audit func(ctx context.Context, e vault.AuditEntry)
	// Vault keeps the stateless era's chat conversations; nil refuses
	// chat in that era.
	Vault *vault.Store
	// Resources, Prompts and Complete serve the methods beyond tools; each
	// nil one is not served (its methods are -32601) nor declared among
	// the capabilities.
	Resources Resources
	Prompts   Prompts
	Complete  Completer
	// Version is serverInfo.version.
	Version string
	// Loopback says the server listens on a loopback address, so that
	// browsers' Origin headers naming this machine are accepted.
	Loopback bool
	// AllowOrigins lists the origins (scheme://host[:port]) accepted beside
	// loopback ones; their hosts are accepted as Host headers too.
	AllowOrigins []string

	// SessionIdle, ChatTimeout, BodyTimeout and ShutdownGrace default to
	// wire.SessionIdle, wire.ChatTimeout, BodyTimeout and ShutdownGrace.
	SessionIdle   time.Duration
	ChatTimeout   time.Duration
	BodyTimeout   time.Duration
	ShutdownGrace time.Duration
	// Now is the clock of session idleness; nil means time.Now.
	Now func() time.Time
	// Logf receives one line per notable event (a dropped session, a
	// failed write); nil discards them.
	Logf func(format string, args ...any)
}

func (o *Options) fill() error {
	if o.Key == "" {
		return errors.New("serve: no key: every request must carry Authorization: Bearer KEY")
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.SessionIdle, wire.SessionIdle)
	def(&o.ChatTimeout, wire.ChatTimeout)
	def(&o.BodyTimeout, BodyTimeout)
	def(&o.ShutdownGrace, ShutdownGrace)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return nil
}

// Host is what served sessions run on: tai's vault, profiles and model
// configuration, as the command line resolves them. Every value it returns
// belongs to one session and is closed with it (Env.State.Close).
type Host interface {
	// Env returns a new tool environment on the default profile for the
	// tools a session calls directly: door tools.DoorServed, approvals as
	// --yolo, no Prompter.
	Env(ctx context.Context) (*tools.Env, error)
	// Agent returns a new agent for one chat conversation on profile ("" is
	// the default one), set up like Env. An unknown profile is an error
	// wrapping ErrUnknownProfile.
	Agent(ctx context.Context, profile string) (*agent.Agent, error)
	// Model returns the default profile's model client.
	Model(ctx context.Context) (llm.Client, error)
}

// ErrUnknownProfile marks a profile that does not exist; a chat naming one
// is refused with -32602.
var ErrUnknownProfile = errors.New("unknown profile")
