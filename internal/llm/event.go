package llm

import "time"

// EventKind names what an [Event] reports.
type EventKind string

const (
	// EventText carries a piece of the answer's text in Text.
	EventText EventKind = "text"
	// EventReasoning carries a piece of the model's visible reasoning
	// (reasoning_content, thinking blocks) in Text. It is not part of the
	// answer and is not kept in the Response.
	EventReasoning EventKind = "reasoning"
	// EventToolCallStart announces tool call number Index; ToolCall holds
	// its ID and Name, Arguments empty.
	EventToolCallStart EventKind = "tool_call_start"
	// EventToolCallDelta carries a piece of call Index's arguments in Text.
	EventToolCallDelta EventKind = "tool_call_delta"
	// EventToolCall reports call Index complete, with its full arguments.
	EventToolCall EventKind = "tool_call"
	// EventRetry reports a failed attempt that will be retried: Attempt is
	// the number of the next attempt (2 for the first retry), Wait the
	// pause before it, Err the failure.
	EventRetry EventKind = "retry"
	// EventDone ends a successful stream; Response is the whole answer.
	EventDone EventKind = "done"
)

// Event is one step of a streamed answer. Which fields are set depends on
// Kind; see the constants.
type Event struct {
	Kind     EventKind
	Text     string
	Index    int // tool-call ordinal within the answer, from 0
	ToolCall *ToolCall

	Attempt int
	Wait    time.Duration
	Err     error

	Response *Response
}
