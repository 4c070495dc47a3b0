package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"tai/internal/llm"
)

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   text            `json:"content"`
	IsError   bool            `json:"is_error"`
}

// anthropicContent is a message's content: a string or a list of blocks.
type anthropicContent []anthropicBlock

func (c *anthropicContent) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		*c = anthropicContent{{Type: "text", Text: &s}}
		return nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(data, &blocks); err != nil {
		return errors.New("content is neither a string nor a list of blocks")
	}
	*c = blocks
	return nil
}

func decodeAnthropic(r *Request) error {
	var body struct {
		Model     string `json:"model"`
		Stream    bool   `json:"stream"`
		MaxTokens int    `json:"max_tokens"`
		System    text   `json:"system"`
		Messages  []struct {
			Role    string           `json:"role"`
			Content anthropicContent `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return err
	}
	r.Model, r.Stream, r.MaxTokens, r.System = body.Model, body.Stream, body.MaxTokens, string(body.System)
	for i, m := range body.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Errorf("messages.%d: unexpected role %q", i, m.Role)
		}
		if len(m.Content) == 0 {
			return fmt.Errorf("messages.%d: all messages must have non-empty content", i)
		}
		msgs, err := anthropicMessages(llm.Role(m.Role), m.Content)
		if err != nil {
			return fmt.Errorf("messages.%d: %w", i, err)
		}
		r.Messages = append(r.Messages, msgs...)
	}
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	nameResults(r.Messages)
	return nil
}

// anthropicMessages splits one wire message into neutral ones: a user
// message's tool results come first, each its own RoleTool message.
func anthropicMessages(role llm.Role, blocks anthropicContent) ([]llm.Message, error) {
	var out []llm.Message
	main := llm.Message{Role: role}
	for j, b := range blocks {
		switch b.Type {
		case "text":
			if b.Text == nil || *b.Text == "" {
				return nil, fmt.Errorf("content.%d: text content blocks must be non-empty", j)
			}
			main.Content += *b.Text
		case "tool_use":
			if role != llm.RoleAssistant {
				return nil, fmt.Errorf("content.%d: tool_use in a %s message", j, role)
			}
			var obj map[string]json.RawMessage
			if json.Unmarshal(b.Input, &obj) != nil || obj == nil {
				return nil, fmt.Errorf("content.%d: tool_use.input: input should be a valid dictionary", j)
			}
			var args bytes.Buffer
			json.Compact(&args, b.Input)
			main.ToolCalls = append(main.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: args.String()})
		case "tool_result":
			if role != llm.RoleUser || main.Content != "" {
				return nil, fmt.Errorf("content.%d: tool_result blocks must come first in a user message", j)
			}
			out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: b.ToolUseID, Content: string(b.Content), IsError: b.IsError})
		}
	}
	if main.Content != "" || len(main.ToolCalls) > 0 {
		out = append(out, main)
	}
	return out, nil
}
