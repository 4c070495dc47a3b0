// Package repl is tai's interactive session: a line editor with history,
// answers streamed as they arrive, one line per tool call, a spinner while
// tai waits, slash commands, and consent screens and ask_user answered on
// the same line editor. Ctrl-C and Ctrl-D behave as in a shell: Ctrl-C
// clears the line at the prompt and cancels a running turn, Ctrl-D on an
// empty line leaves.
//
// The REPL knows nothing of vaults or profiles' storage: a [Host] (the
// command line) opens conversations and runs tai's subcommands for it.
package repl

import (
	"context"
	"encoding/json"
	"io"

	"tai/internal/agent"
	"tai/internal/llm"
)

// Host is what the REPL needs from the rest of tai.
type Host interface {
	// Open starts a conversation (or resumes one, see OpenRequest). A
	// conversation that cannot reach its model still opens; its
	// Info().Problem says why. Errors are for what /profile cannot
	// recover from: a missing profile, an unreadable vault.
	Open(ctx context.Context, r OpenRequest) (Conversation, error)
	// Commands lists tai's subcommands a slash command may run.
	Commands() []Command
	// RunCommand runs a subcommand (args[0] one of Commands) on profile
	// as `tai --profile PROFILE ARGS…` would, printing on the terminal and
	// asking its questions through person. It reports failures itself.
	RunCommand(ctx context.Context, profile string, args []string, person *Person)
}

// OpenRequest says which conversation to open.
type OpenRequest struct {
	// Profile is the profile's name; "" means the current one.
	Profile string
	// Model overrides the profile's model ("provider:model") when not "".
	Model string
	// Resume continues a stored conversation by id; Continue the latest
	// one of this profile and directory.
	Resume   string
	Continue bool
	// Person answers consent screens and ask_user.
	Person *Person
	// Notices receives auto-approval notices and other one-liners.
	Notices func(string)
	// Arrived receives what ended on its own (a task that went to the
	// background): notice for the person now, forModel to go to the model
	// ahead of the person's next message.
	Arrived func(notice, forModel string)
}

// Conversation is one conversation with the model.
type Conversation interface {
	Info() Info
	// Turn runs one turn of the agent, reporting it to onEvent.
	Turn(ctx context.Context, input string, onEvent func(agent.Event)) (agent.TurnResult, error)
	// Compact replaces the conversation but its last turn with a summary
	// the model writes; it returns how many messages it replaced.
	Compact(ctx context.Context, onEvent func(agent.Event)) (int, error)
	// RunTool runs a call the person asked for (!command, @path) through
	// the same approval, tool and audit as the model's calls.
	RunTool(ctx context.Context, name string, args json.RawMessage, onEvent func(agent.Event)) (text string, isError bool)
	// Close ends what the conversation's tools started (background jobs,
	// MCP connections). The REPL closes a conversation it leaves.
	Close()
}

// Info describes a conversation for the prompt, the banner and /model.
type Info struct {
	Profile  string
	Model    string
	Approval string
	// Session is the stored conversation's id, "" before its first turn.
	Session  string
	Messages int
	// Window is the model's context window in tokens, 0 when unknown;
	// Price its list prices, nil when unknown.
	Window int
	Price  *llm.Price
	// Problem says, in one line, why the model cannot be reached (no key,
	// an unknown provider); "" when it can. Turns fail until /model,
	// /profile or a subcommand such as /secret fixes it.
	Problem string
}

// Command is one of tai's subcommands.
type Command struct {
	Name  string
	Short string
}

// Options configure a REPL.
type Options struct {
	Host Host
	// In reads the person's lines: an Editor on a terminal.
	In LineReader
	// Remember, when set, adds a submitted line to the history.
	Remember func(line string) error
	// Out is the terminal. Terminal turns on the spinner, Color colours.
	Out      io.Writer
	Terminal bool
	Color    bool
	// Width is the terminal's width in columns (0 when unknown).
	Width func() int
	// Interrupts delivers Ctrl-C pressed while a turn runs (SIGINT).
	Interrupts <-chan struct{}
	// First is the conversation to start with.
	First OpenRequest
	// Version is shown in the banner.
	Version string
}
