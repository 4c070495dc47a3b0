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
	System    string    `json:"system,omitempty"`
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
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
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
	mr.System = strings.Join(system, "\n\n")
	for _, t := range req.Tools {
		mr.Tools = append(mr.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: provider.Schema(t.Parameters)})
	}
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
