package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/llm"
	"tai/internal/llm/internal/provider"
)

type messagesRequest struct {
	Model     string    `json:"model"`
	MaxTokens int       `json:"max_tokens"`
	System    []block   `json:"system,omitempty"`
	Messages  []message `json:"messages"`
	Tools     []tool    `json:"tools,omitempty"`
	Stream    bool      `json:"stream"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is a content block: text, tool_use or tool_result.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	// CacheControl marks a prompt-cache breakpoint: the prompt up to and
	// including this block is cached (see markBreakpoints).
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the API's only cache type (five minutes, renewed on use).
var ephemeral = &cacheControl{Type: "ephemeral"}

type tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

// encode builds the request body. System messages join the system prompt;
// tool results become tool_result blocks of a user message; consecutive
// messages of one role merge, and empty ones are dropped, as the API
// wants non-empty, alternating turns.
func (c *Client) encode(req llm.Request) ([]byte, error) {
	cfg := c.t.Config
	mr := messagesRequest{Model: cfg.Model, MaxTokens: req.MaxTokens, Stream: true}
	if req.Model != "" {
		mr.Model = req.Model
	}
	if mr.MaxTokens == 0 {
		mr.MaxTokens = cfg.MaxTokens
	}
	if mr.MaxTokens == 0 {
		mr.MaxTokens = DefaultMaxTokens
	}
	var system []string
	if req.System != "" {
		system = append(system, req.System)
	}
	for _, m := range req.Messages {
		if m.Role == llm.RoleSystem {
			if m.Content != "" {
				system = append(system, m.Content)
			}
			continue
		}
		mr.Messages = appendMessage(mr.Messages, m)
	}
	if len(system) > 0 {
		mr.System = []block{{Type: "text", Text: strings.Join(system, "\n\n")}}
	}
	for _, t := range req.Tools {
		mr.Tools = append(mr.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: provider.Schema(t.Parameters)})
	}
	markBreakpoints(&mr)
	body, err := json.Marshal(mr)
	if err != nil {
		return nil, fmt.Errorf("anthropic: encoding request: %w", err)
	}
	return body, nil
}

func appendMessage(msgs []message, m llm.Message) []message {
	role, blocks := "user", []block(nil)
	switch m.Role {
	case llm.RoleAssistant:
		role = "assistant"
		if m.Content != "" {
			blocks = append(blocks, block{Type: "text", Text: m.Content})
		}
		for _, tc := range m.ToolCalls {
			blocks = append(blocks, block{Type: "tool_use", ID: toolID(tc.ID), Name: tc.Name, Input: provider.ObjectArgs(tc.Arguments)})
		}
	case llm.RoleTool:
		blocks = append(blocks, block{Type: "tool_result", ToolUseID: toolID(m.ToolCallID), Content: m.Content, IsError: m.IsError})
	default:
		if m.Content != "" {
			blocks = append(blocks, block{Type: "text", Text: m.Content})
		}
	}
	if len(blocks) == 0 {
		return msgs
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == role {
		msgs[n-1].Content = append(msgs[n-1].Content, blocks...)
		return msgs
	}
	return append(msgs, message{Role: role, Content: blocks})
}

// toolID makes an id from another provider's history acceptable: the API
// allows only letters, digits, _ and -.
func toolID(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, id)
}

// markBreakpoints sets the request's prompt-cache breakpoints, at most the
// API's four. The prompt is cached in the order tools, system, messages,
// and a breakpoint caches everything up to it, so: the last tool (the tool
// list stays the same through a turn, see agent), the system prompt, the
// end of the history (the next step's request starts with this one's
// prompt), and the end of the user message before it, which was the end
// of the previous step's request: a hit there holds even when one step
// added more blocks than the API looks back from a breakpoint (20). The
// API caches nothing below its minimum size, and charges nothing for a
// breakpoint that does not cache.
func markBreakpoints(mr *messagesRequest) {
	if n := len(mr.Tools); n > 0 {
		mr.Tools[n-1].CacheControl = ephemeral
	}
	if len(mr.System) > 0 {
		mr.System[0].CacheControl = ephemeral
	}
	last := len(mr.Messages) - 1
	if last < 0 {
		return
	}
	markEnd(&mr.Messages[last])
	for i := last - 1; i >= 0; i-- {
		if mr.Messages[i].Role == "user" {
			markEnd(&mr.Messages[i])
			return
		}
	}
}

func markEnd(m *message) {
	if n := len(m.Content); n > 0 {
		m.Content[n-1].CacheControl = ephemeral
	}
}
