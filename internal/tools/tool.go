// Package tools defines what a tool is to tai (a name, a description, a JSON
// Schema, a safety rule and a run function) and the one door every call
// goes through. Where things are:
//
//   - tool.go: Tool, Call, Result, Env, Consent; define.go: Define, the one
//     way to declare a tool; invoke.go: Invoke, the one door (validation,
//     approval, run, redaction, the audit row); registry.go: Registry.
//   - consent.go, safety.go, reach.go: what approval screens show, safety
//     classes, what a call reads or sends, and grants.
//   - Each group of native tools is a subpackage (fs, search, shell, git,
//     web, memory, vaulttools, profiletools, plan, people, subagent, meta);
//     internal/catalog lists them with the bridge's mcp_* tools.
//   - schema validates arguments; selector picks the tools offered each
//     step; tooltest runs tools in tests as the agent does.
//
// docs/host.md §6 describes tools as a person meets them.
package tools

import (
	"context"
	"encoding/json"
	"io"
	"net/netip"
	"reflect"

	"tai/internal/vault"
)

// Tool is one callable tool. Native tools are declared once in their own
// file; bridged MCP tools are built from a server's cached tool list.
type Tool struct {
	Name        string
	Description string
	// Schema is the JSON Schema of the arguments (an object schema). It is
	// public surface: served verbatim as inputSchema by `tai --serve-mcp`.
	Schema json.RawMessage
	// Group names the catalogue group ("files", "shell", "mcp", …).
	Group string
	// Asks is how people ask for what the tool does, in their own words,
	// one phrase a line: matched by the tool selector, never sent to a
	// model or served (native tools only; see docs/benchmarks.md).
	Asks string

	// Safe reports whether a call with these validated arguments may run
	// without asking. Nil means never safe.
	Safe func(call Call) bool
	// Consent describes a call for the approval screen: the command, or
	// the file a write would change shown as a diff. Nil shows the tool
	// name and an argument digest. Callers use ConsentFor.
	Consent func(call Call) Consent
	// Hidden names top-level arguments whose values must never be shown,
	// logged or digested (secret_set's value). Hosts show Shown(args) on
	// consent screens and in event streams, and digest it for the audit.
	Hidden []string

	// run performs the call, reached only through Invoke (see Define and
	// Raw). A failure the model should read and react to is a Result with
	// IsError set; a returned error means the call could not be carried
	// out at all (a protocol or transport failure for bridged tools).
	run RunFunc

	// Server is set for bridged MCP tools: the registered server's name.
	// Bridged tools are never served over MCP.
	Server string
	// Remote is the bridged tool's name on its server.
	Remote string
	// Reach, when set, says what a call reads or sends outside tai's own
	// state, for the approval policy: reads outside the workspace and
	// requests to hosts ask even when Safe says the call is read-only.
	Reach func(call Call) Reach

	// Subject, when set, is what a call's audit row names instead of the
	// tool's name (mcp_call names the server and tool it reaches), and
	// AuditKind its kind instead of vault.KindTool.
	Subject   func(call Call) string
	AuditKind string

	// args is the type Define decodes arguments into, and decode decodes
	// them into one (see ArgsOf).
	args   reflect.Type
	decode func(json.RawMessage) (any, error)

	// Unoffered marks a bridged tool that is listed but never offered to
	// the model (past its server's MCP_MAX_TOOLS); mcp_call still reaches it.
	Unoffered bool
}

// RunFunc is what a tool does with a call.
type RunFunc func(ctx context.Context, call Call) (Result, error)

// Runs reports whether t can run at all (it was declared with Define or
// Raw).
func (t *Tool) Runs() bool { return t.run != nil }

// Bridged reports whether t is a foreign MCP tool.
func (t *Tool) Bridged() bool { return t.Server != "" }

// IsSafe applies the tool's safety rule.
func (t *Tool) IsSafe(call Call) bool { return t.Safe != nil && t.Safe(call) }

// AlwaysSafe is the Safe rule of read-only tools.
func AlwaysSafe(Call) bool { return true }

// Consent is what the approval screen shows about one call.
type Consent struct {
	// Title is one line: "shell: rm -rf build", "mcp everything/echo".
	Title string
	// Detail is the full picture: the command, the file and diff, the
	// argument digest. May be several lines.
	Detail string
	// Server is set for MCP calls, enabling "always for this server".
	Server string
	// Grants are the narrow scopes that cover the call's own action, all
	// of them needed: a shell line's command prefixes, one bridged tool.
	// None means "always" is not offered: a standing grant for a whole
	// tool that changes things takes an explicit `tai permissions grant`
	// (docs/reliability.md, the threat model).
	Grants []Grant
	// Sensitive marks a call that asks every time: no standing grant covers
	// it and "always" is not offered (a read of ~/.ssh, tai's own home).
	Sensitive bool
	// Always lists every grant answering "always" would store; the approval
	// policy fills it in (the call's Grant and what its Reach needs), and
	// consent screens show it. Empty means "always" is not offered.
	Always []Grant
	// Unconfined marks a command that would run outside the sandbox (the
	// model asked, or the kernel cannot confine): the person is asked in
	// every mode but yolo, no grant covers it, and "always" is not offered.
	Unconfined bool
}

// Call is one invocation, with the host around it.
type Call struct {
	ID   string // the model's tool-call id, when there is one
	Args json.RawMessage
	Env  *Env

	// in is Args decoded into a Define'd tool's argument type, once, by
	// Invoke; nil where the call did not come through it.
	in any
}

// Result is what a tool returns to the model.
type Result struct {
	Text    string
	IsError bool
}

// Errorf is a tool error result.
func Errorf(format string, args ...any) Result {
	return Result{Text: sprintf(format, args...), IsError: true}
}

// Text is a successful plain-text result.
func Text(s string) Result { return Result{Text: s} }

// Env is the host a tool runs in. Fields may be nil where a host lacks the
// capability (no person present, no subagents); tools must say so clearly.
type Env struct {
	Dir string // working directory; relative paths resolve against it
	// Roots are further directories the person added to the workspace
	// (--add-dir); reads inside Dir or a root need no approval.
	Roots   []string
	Store   *vault.Store
	Profile string
	Session string
	// Approval is the host's effective approval mode (ask, auto or yolo).
	// Tools that change settings refuse to raise it; "" counts as ask.
	Approval string

	// Prompter reaches the person at the terminal; nil when nobody is there
	// (one-shot without a tty, served sessions).
	Prompter Prompter
	// Subagents runs child agents; nil where forking is not possible.
	Subagents Subagents
	// Door is whom the host serves: the person (the zero value), a client
	// of `tai --serve-mcp` calling tools directly, or a served chat's agent.
	Door Door
	// Progress receives streamed output of long tools (shell), may be nil.
	Progress io.Writer
	// Sandbox confines the commands tools run (shell, its jobs, !command);
	// nil runs them unconfined (--sandbox off, and hosts that set none).
	Sandbox *Sandbox

	// State holds per-host tool state (jobs, undo snapshots, loaded tools),
	// keyed by the owning package.
	State *State
	// Tools is the registry the host's agent calls tools from, for tools
	// that look across the catalogue (tool_search); nil where there is none.
	Tools *Registry
}

// Door is whom a tool host serves.
type Door int

const (
	// DoorLocal is the person's own session: the REPL, one-shot mode,
	// tai's commands.
	DoorLocal Door = iota
	// DoorServed is a client of `tai --serve-mcp` calling native tools
	// directly: bridged tools are unreachable and interactive-only tools
	// refuse.
	DoorServed
	// DoorServedChat is the agent of a served chat: a full agent, it
	// reaches the bridged tools enabled for its profile, which are still
	// never served as MCP tools themselves.
	DoorServedChat
)

// Served reports whether the host serves an MCP client (directly or
// through a served chat) rather than the person.
func (e *Env) Served() bool { return e != nil && e.Door != DoorLocal }

// Sandbox is how the host confines commands: the mode (sandbox's
// ReadOnly or WorkspaceWrite), the person's home and tai's, whose
// protected paths no command reads. Unavailable, when set, says why the
// kernel cannot confine here: commands then run unconfined, and each
// asks the person first.
type Sandbox struct {
	Mode, Home, TaiHome string
	Unavailable         string
	// DeniedHost, when set, is the administrator's refusal of hosts,
	// which no command reaches through tai's proxy whatever is granted.
	DeniedHost func(host string) bool
	// Lookup resolves names for the proxy; nil is the system's resolver
	// (tests name their own hosts).
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// Prompter asks the person a question.
type Prompter interface {
	Ask(ctx context.Context, question string, choices []string) (string, error)
}

// Subagents runs child agents on the same profile (docs/host.md §5).
type Subagents interface {
	Fork(ctx context.Context, req ForkRequest) (ForkResult, error)
	Start(ctx context.Context, req ForkRequest) (id string, err error)
	Wait(ctx context.Context, id string) (ForkResult, error)
	List() []ForkStatus
	Cancel(id string) error
}

// ForkRequest starts a child agent.
type ForkRequest struct {
	Brief    string
	MaxSteps int
	Timeout  int // seconds; 0 means the runner's default
	// Tools, when non-nil, replaces the child's tool registry (the GitHub
	// resolver gives its child a single read tool).
	Tools *Registry
}

// ForkResult is a child's outcome.
type ForkResult struct {
	Answer   string
	RecordID string // the transcript
	Partial  bool   // step cap or deadline reached
	Reason   string
}

// ForkStatus describes a running or finished child.
type ForkStatus struct {
	ID, Brief, State string
}
