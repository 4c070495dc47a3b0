package agent

import (
	"encoding/json"

	"tai/internal/llm"
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

	// Final.
	Steps   int    `json:"steps,omitempty"`
	Partial bool   `json:"partial,omitempty"`
	Reason  string `json:"reason,omitempty"`

	// Usage and final: tokens of the call (usage) or the turn (final);
	// Context is the conversation's size in tokens after the call.
	Usage   *llm.Usage `json:"usage,omitempty"`
	Context int        `json:"context_tokens,omitempty"`
}
