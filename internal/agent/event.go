package agent

import (
	"encoding/json"

	"tai/internal/llm"
	"tai/internal/tools"
)

// EventType names what an Event reports. The names are also the "type" of
// each line of `tai --json`.
type EventType string

const (
	// EventText is a piece of the answer's text, as it streams.
	EventText EventType = "text"
	// EventToolCall is a complete tool call the agent is about to run.
	EventToolCall EventType = "tool_call"
	// EventToolResult is a tool's result (or its denial).
	EventToolResult EventType = "tool_result"
	// EventNotice is a one-line message for the person (auto-approvals,
	// retries, elisions); never sent to the model.
	EventNotice EventType = "notice"
	// EventWaiting marks the start (Busy true) and end (Busy false) of a wait
	// on the model or on a long tool, for spinners.
	EventWaiting EventType = "waiting"
	// EventProgress is how far a running tool call has come, as its MCP
	// server reports it (Server, Text the server's message, Progress and
	// Total), for a line replaced in place; at most ten a second per call.
	EventProgress EventType = "progress"
	// EventUsage reports one model call's tokens (Usage) and the size of
	// the conversation after it (Context).
	EventUsage EventType = "usage"
	// EventFinal ends a turn with its answer, and the turn's usage.
	EventFinal EventType = "final"
)

// Event is one step of a turn, for display and for `--json`.
type Event struct {
	Type EventType `json:"type"`

	// Tool calls and results.
	CallID    string          `json:"id,omitempty"`
	Tool      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`

	Text    string `json:"text,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	Denied  bool   `json:"denied,omitempty"`

	// Waits.
	Busy  bool   `json:"busy,omitempty"`
	Label string `json:"label,omitempty"`

	// Progress of a call: its server and how far it has come, of Total
	// when that is known (above 0).
	Server   string   `json:"server,omitempty"`
	Progress *float64 `json:"progress,omitempty"`
	Total    float64  `json:"total,omitempty"`

	// Final.
	Steps   int    `json:"steps,omitempty"`
	Partial bool   `json:"partial,omitempty"`
	Reason  string `json:"reason,omitempty"`

	// Usage and final: tokens of the call (usage) or the turn (final);
	// Context is the conversation's size in tokens after the call.
	Usage   *llm.Usage `json:"usage,omitempty"`
	Context int        `json:"context_tokens,omitempty"`
}

// Report is a progress event's report.
func (e Event) Report() tools.Progress {
	p := tools.Progress{Server: e.Server, Message: e.Text, Total: e.Total}
	if e.Progress != nil {
		p.Done = *e.Progress
	}
	return p
}
