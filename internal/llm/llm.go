// Package llm is tai's provider-neutral view of a chat model: messages, tool
// specs, tool calls, streamed events, and the [Client] that completes one
// step of a conversation. The wire protocols live beneath it, one package
// each ([tai/internal/llm/openai], [tai/internal/llm/anthropic]); fakes of
// both live in [tai/internal/llm/llmtest].
package llm

import (
	"context"
	"encoding/json"
)

// Role says who wrote a [Message].
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool" // a tool's result, answering one ToolCall
)

// Message is one entry of a conversation.
//
// A valid history answers every ToolCall of an assistant message with one
// RoleTool message carrying the call's ID, before the next user or
// assistant message. Providers reject histories that break this rule.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"` // tool name, on tool results
	IsError    bool       `json:"is_error,omitempty"`
	// Compacts, on a summary the agent wrote when it compacted the
	// conversation, is how many messages before it the summary replaces
	// (counted in the conversation as it stood then). Providers never
	// see it; a stored history keeps every message and replays this.
	Compacts int `json:"compacts,omitempty"`
}

// ToolCall is the model's request to run one tool.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw JSON text exactly as the model produced it. It
	// may be malformed; callers validate it. When a history is sent back,
	// arguments that are not a JSON object are sent as {} so the provider
	// accepts the history.
	Arguments string `json:"arguments"`
}

// ToolSpec describes a tool the model may call.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments (an object schema).
	// Nil means no parameters.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// Request is one completion: the conversation so far and the tools offered.
type Request struct {
	// Model overrides the client's configured model when not empty.
	Model    string
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the answer; 0 means the client's default.
	MaxTokens int
	// OnEvent, when not nil, receives the answer as it streams, in order,
	// on the goroutine that called Complete. It should return quickly.
	OnEvent func(Event)
}

// Stop reasons, normalised across providers. Others (content_filter,
// refusal, pause_turn) pass through as the provider spelled them.
const (
	StopEndTurn   = "end_turn"
	StopToolUse   = "tool_use"
	StopMaxTokens = "max_tokens"
)

// Response is the model's answer to one [Request].
type Response struct {
	// Message has RoleAssistant, the answer's text and its tool calls in
	// the order the model made them. Callers should act on ToolCalls, not
	// on StopReason: some servers say "stop" after calling tools.
	Message    Message
	StopReason string
	Usage      Usage
}

// Usage counts the tokens of one completion, as the provider reported them.
// InputTokens is the whole prompt, cached parts included: CacheReadTokens
// of it were read from the provider's prompt cache (billed at a fraction)
// and CacheWriteTokens written to it (Anthropic bills those above the
// input price).
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Add sums two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens,
		CacheReadTokens: u.CacheReadTokens + v.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens}
}

// CachedShare is the share of input tokens read from the cache, 0 to 1.
func (u Usage) CachedShare() float64 {
	if u.InputTokens == 0 {
		return 0
	}
	return float64(u.CacheReadTokens) / float64(u.InputTokens)
}

// Client completes conversations against one provider and model.
//
// Complete streams the answer through req.OnEvent and returns it whole.
// Failures are *[Error] values. When one strikes after text has streamed
// (a cut stream, a stall, an error event, cancellation), the Response
// holds that text without tool calls, for display only: it is not a
// valid history entry. Implementations are safe for concurrent use.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}
