package provider

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	"tai/internal/llm"
)

// Builder assembles a streamed answer and reports it as llm.Events. The
// protocols feed it text and tool-call pieces in wire order; tool calls
// are numbered in the order they start.
type Builder struct {
	onEvent   func(llm.Event)
	text      strings.Builder
	calls     []*call
	committed bool
}

type call struct {
	id, name string
	args     strings.Builder
	ended    bool
}

// NewBuilder returns a Builder reporting to onEvent, which may be nil.
func NewBuilder(onEvent func(llm.Event)) *Builder { return &Builder{onEvent: onEvent} }

func (b *Builder) emit(ev llm.Event) {
	b.committed = true
	if b.onEvent != nil {
		b.onEvent(ev)
	}
}

// Committed reports whether anything has reached the caller, after which
// the request must not be retried.
func (b *Builder) Committed() bool { return b.committed }

// Text adds a piece of the answer.
func (b *Builder) Text(s string) {
	if s == "" {
		return
	}
	b.text.WriteString(s)
	b.emit(llm.Event{Kind: llm.EventText, Text: s})
}

// Reasoning reports a piece of visible reasoning; it is not kept.
func (b *Builder) Reasoning(s string) {
	if s != "" {
		b.emit(llm.Event{Kind: llm.EventReasoning, Text: s})
	}
}

// StartCall begins a tool call and returns its ordinal.
func (b *Builder) StartCall(id, name string) int {
	i := len(b.calls)
	b.calls = append(b.calls, &call{id: id, name: name})
	b.emit(llm.Event{Kind: llm.EventToolCallStart, Index: i, ToolCall: &llm.ToolCall{ID: id, Name: name}})
	return i
}

// Calls is the number of tool calls started.
func (b *Builder) Calls() int { return len(b.calls) }

// Name completes call i's name when a server streams it in pieces: a
// piece equal to the name so far is a repeat, anything else is appended.
func (b *Builder) Name(i int, piece string) {
	c := b.calls[i]
	if piece != "" && piece != c.name {
		c.name += piece
	}
}

// ID sets call i's id if the server sends it late.
func (b *Builder) ID(i int, id string) {
	if c := b.calls[i]; c.id == "" {
		c.id = id
	}
}

// Args adds a piece of call i's arguments.
func (b *Builder) Args(i int, piece string) {
	if piece == "" {
		return
	}
	b.calls[i].args.WriteString(piece)
	b.emit(llm.Event{Kind: llm.EventToolCallDelta, Index: i, Text: piece})
}

// EndCall reports call i complete; later calls for the same i do nothing.
// Empty arguments become "{}", a missing id a random one.
func (b *Builder) EndCall(i int) {
	c := b.calls[i]
	if c.ended {
		return
	}
	c.ended = true
	if c.id == "" {
		c.id = newCallID()
	}
	tc := b.toolCall(c)
	b.emit(llm.Event{Kind: llm.EventToolCall, Index: i, ToolCall: &tc})
}

func (b *Builder) toolCall(c *call) llm.ToolCall {
	args := c.args.String()
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	return llm.ToolCall{ID: c.id, Name: c.name, Arguments: args}
}

// Finish ends every open call, reports EventDone and returns the answer.
// A "stop" after tool calls becomes llm.StopToolUse.
func (b *Builder) Finish(stop string, usage llm.Usage) llm.Response {
	for i := range b.calls {
		b.EndCall(i)
	}
	resp := llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: b.text.String()}, StopReason: stop, Usage: usage}
	for _, c := range b.calls {
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, b.toolCall(c))
	}
	if len(b.calls) > 0 && stop == llm.StopEndTurn {
		resp.StopReason = llm.StopToolUse
	}
	b.emit(llm.Event{Kind: llm.EventDone, Response: &resp})
	return resp
}

// Partial is the text that arrived before a failure, for display only.
func (b *Builder) Partial() llm.Response {
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: b.text.String()}}
}

func newCallID() string {
	var p [8]byte
	rand.Read(p[:])
	return "call_" + hex.EncodeToString(p[:])
}

// CallID is call i's id so far.
func (b *Builder) CallID(i int) string { return b.calls[i].id }
