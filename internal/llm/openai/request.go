package openai

import (
	"encoding/json"
	"fmt"

	"tai/internal/llm"
	"tai/internal/llm/internal/provider"
)

type chatRequest struct {
	Model               string         `json:"model"`
	Messages            []chatMessage  `json:"messages"`
	Tools               []chatTool     `json:"tools,omitempty"`
	Stream              bool           `json:"stream"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
	MaxTokens           int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type chatMessage struct {
	Role string `json:"role"`
	// Content is null on an assistant message that only calls tools.
	Content    *string        `json:"content"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatTool struct {
	Type     string       `json:"type"`
	Function chatToolSpec `json:"function"`
}

type chatToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// encode builds the request body. Tool results carry no name or error flag
// on this wire; the text says what happened.
func (c *Client) encode(req llm.Request) ([]byte, error) {
	cfg := c.t.Config
	cr := chatRequest{Model: cfg.Model, Stream: true, StreamOptions: &streamOptions{IncludeUsage: true}}
	if req.Model != "" {
		cr.Model = req.Model
	}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = cfg.MaxTokens
	}
	if c.maxTokensField == "max_completion_tokens" {
		cr.MaxCompletionTokens = maxTokens
	} else {
		cr.MaxTokens = maxTokens
	}
	if req.System != "" {
		cr.Messages = append(cr.Messages, chatMessage{Role: "system", Content: &req.System})
	}
	for _, m := range req.Messages {
		cr.Messages = append(cr.Messages, encodeMessage(m))
	}
	for _, t := range req.Tools {
		cr.Tools = append(cr.Tools, chatTool{Type: "function", Function: chatToolSpec{
			Name: t.Name, Description: t.Description, Parameters: provider.Schema(t.Parameters)}})
	}
	body, err := json.Marshal(cr)
	if err != nil {
		return nil, fmt.Errorf("openai: encoding request: %w", err)
	}
	return body, nil
}

func encodeMessage(m llm.Message) chatMessage {
	content := m.Content
	cm := chatMessage{Role: string(m.Role), Content: &content, ToolCallID: m.ToolCallID}
	if m.Role != llm.RoleAssistant {
		return cm
	}
	for _, tc := range m.ToolCalls {
		cm.ToolCalls = append(cm.ToolCalls, chatToolCall{ID: tc.ID, Type: "function",
			Function: chatFunction{Name: tc.Name, Arguments: string(provider.ObjectArgs(tc.Arguments))}})
	}
	if content == "" && len(cm.ToolCalls) > 0 {
		cm.Content = nil
	}
	return cm
}
