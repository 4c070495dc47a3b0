package llmtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"tai/internal/llm"
)

// Request is one request the fake received.
type Request struct {
	Protocol string          `json:"protocol"` // llm.ProtocolOpenAI or llm.ProtocolAnthropic
	Path     string          `json:"path"`
	Header   http.Header     `json:"header"`
	Body     json.RawMessage `json:"body"`

	// The body, decoded into provider-neutral form. On the OpenAI wire a
	// leading system message is System; tool results get their Name from
	// the call they answer.
	Model     string         `json:"model"`
	System    string         `json:"system,omitempty"`
	Messages  []llm.Message  `json:"messages"`
	Tools     []llm.ToolSpec `json:"tools,omitempty"`
	MaxTokens int            `json:"max_tokens,omitempty"`
	Stream    bool           `json:"stream"`

	// Invalid says why the fake refused the request as the real API
	// would; "" when it was accepted.
	Invalid string `json:"invalid,omitempty"`
}

// LastUser is the text of the last user message, "" if there is none.
func (r *Request) LastUser() string {
	if i := r.lastUserIndex(); i >= 0 {
		return r.Messages[i].Content
	}
	return ""
}

func (r *Request) lastUserIndex() int {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.RoleUser {
			return i
		}
	}
	return -1
}

// text is message content on either wire: a string, null, or a list of
// parts of which the text ones count.
type text string

func (t *text) UnmarshalJSON(data []byte) error {
	var s *string
	if json.Unmarshal(data, &s) == nil {
		if s != nil {
			*t = text(*s)
		}
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(data, &parts); err != nil {
		return errors.New("content is neither a string nor a list of parts")
	}
	for _, p := range parts {
		if p.Type == "text" {
			*t += text(p.Text)
		}
	}
	return nil
}

// nameResults fills tool results' names from the calls they answer.
func nameResults(msgs []llm.Message) {
	names := map[string]string{}
	for i, m := range msgs {
		for _, tc := range m.ToolCalls {
			names[tc.ID] = tc.Name
		}
		if m.Role == llm.RoleTool && m.Name == "" {
			msgs[i].Name = names[m.ToolCallID]
		}
	}
}

func decodeOpenAI(r *Request) error {
	var body struct {
		Model               string `json:"model"`
		Stream              bool   `json:"stream"`
		MaxTokens           int    `json:"max_tokens"`
		MaxCompletionTokens int    `json:"max_completion_tokens"`
		Messages            []struct {
			Role       string `json:"role"`
			Content    text   `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string       `json:"type"`
			Function llm.ToolSpec `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return err
	}
	r.Model, r.Stream = body.Model, body.Stream
	r.MaxTokens = max(body.MaxTokens, body.MaxCompletionTokens)
	for i, m := range body.Messages {
		role := llm.Role(m.Role)
		if role == "developer" {
			role = llm.RoleSystem
		}
		if i == 0 && role == llm.RoleSystem {
			r.System = string(m.Content)
			continue
		}
		msg := llm.Message{Role: role, Content: string(m.Content), ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			if tc.Type != "function" {
				return fmt.Errorf("tool call %s has type %q, want function", tc.ID, tc.Type)
			}
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		r.Messages = append(r.Messages, msg)
	}
	for _, t := range body.Tools {
		if t.Type != "function" {
			return fmt.Errorf("tool %s has type %q, want function", t.Function.Name, t.Type)
		}
		r.Tools = append(r.Tools, t.Function)
	}
	nameResults(r.Messages)
	return nil
}
