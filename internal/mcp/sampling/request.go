// Package sampling answers an MCP server's sampling/createMessage: a
// request that tai's model write a reply to messages the server chose. The
// messages go to the person's model provider and the reply goes back to
// the server, so both are shown to the person first ([Sampler.Sample]).
package sampling

import (
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/llm"
	"tai/internal/mcp/wire"
)

// Request is a server's sampling request as tai reads it. Every field is
// the server's, untrusted.
type Request struct {
	Messages     []Message
	SystemPrompt string
	// MaxTokens is what the server asked for; Tokens is what it gets.
	MaxTokens     int
	Temperature   *float64
	StopSequences []string
	// ModelPreferences and IncludeContext are shown and not followed:
	// the reply comes from the profile's model, with no context added.
	ModelPreferences json.RawMessage
	IncludeContext   string
}

// Message is one message of a sampling request.
type Message struct {
	Role    string // user or assistant
	Content []Content
}

// Content is one block of a message: text, image or audio.
type Content struct {
	Type     string
	Text     string
	MimeType string
	Data     string // base64, as sent
}

// wireRequest is CreateMessageRequest's params as sent.
type wireRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	SystemPrompt     string          `json:"systemPrompt"`
	MaxTokens        *int            `json:"maxTokens"`
	Temperature      *float64        `json:"temperature"`
	StopSequences    []string        `json:"stopSequences"`
	ModelPreferences json.RawMessage `json:"modelPreferences"`
	IncludeContext   string          `json:"includeContext"`
}

// invalid is the error a server gets for a request tai will not read.
func invalid(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// Parse reads a sampling request's params, refusing one over
// MCP_SAMPLING_MAX_BYTES before decoding it, and content tai did not
// declare it takes (tool use needs sampling.tools, which tai leaves out).
func Parse(params json.RawMessage) (Request, error) {
	if len(params) > wire.SamplingMaxBytes {
		return Request{}, invalid("sampling request of %d bytes is over MCP_SAMPLING_MAX_BYTES (%d)", len(params), wire.SamplingMaxBytes)
	}
	var w wireRequest
	if err := json.Unmarshal(params, &w); err != nil {
		return Request{}, invalid("sampling request is not a CreateMessageRequest: %s", wire.Printable(err.Error(), 120))
	}
	if len(w.Messages) == 0 {
		return Request{}, invalid("sampling request has no messages")
	}
	r := Request{SystemPrompt: w.SystemPrompt, Temperature: w.Temperature, StopSequences: w.StopSequences,
		ModelPreferences: w.ModelPreferences, IncludeContext: w.IncludeContext}
	if w.MaxTokens != nil {
		if *w.MaxTokens <= 0 {
			return Request{}, invalid("sampling request asks for %d tokens", *w.MaxTokens)
		}
		r.MaxTokens = *w.MaxTokens
	}
	for i, m := range w.Messages {
		if m.Role != string(llm.RoleUser) && m.Role != string(llm.RoleAssistant) {
			return Request{}, invalid("message %d has role %q; want user or assistant", i+1, wire.Printable(m.Role, 40))
		}
		blocks, err := contentOf(m.Content)
		if err != nil {
			return Request{}, invalid("message %d: %s", i+1, err)
		}
		r.Messages = append(r.Messages, Message{Role: m.Role, Content: blocks})
	}
	return r, nil
}

// contentOf reads one message's content: a block, or (2025-11-25) a list
// of blocks.
func contentOf(raw json.RawMessage) ([]Content, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		list = []json.RawMessage{raw}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("no content")
	}
	var out []Content
	for _, b := range list {
		var c struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			MimeType string `json:"mimeType"`
			Data     string `json:"data"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("content is not a content block")
		}
		switch c.Type {
		case "text", "image", "audio":
		default:
			return nil, fmt.Errorf("content of type %q is not text, image or audio; tai declared sampling without tools", wire.Printable(c.Type, 40))
		}
		out = append(out, Content{Type: c.Type, Text: c.Text, MimeType: c.MimeType, Data: c.Data})
	}
	return out, nil
}

// Tokens is the most tokens the reply may take: what the server asked
// for, clamped to MCP_SAMPLING_MAX_TOKENS (the cap when it asked none).
func (r Request) Tokens() int {
	if r.MaxTokens <= 0 || r.MaxTokens > wire.SamplingMaxTokens {
		return wire.SamplingMaxTokens
	}
	return r.MaxTokens
}

// placeholder is what the model reads in place of an image or audio
// block: tai's model clients carry text only.
func (c Content) placeholder() string {
	return fmt.Sprintf("[%s, %s, %d bytes of base64, not shown to the model]", c.Type, c.MimeType, len(c.Data))
}

// llmRequest is the one model call of r: its messages as text, no tools.
func (r Request) llmRequest() llm.Request {
	req := llm.Request{System: r.SystemPrompt, MaxTokens: r.Tokens()}
	for _, m := range r.Messages {
		parts := make([]string, len(m.Content))
		for i, c := range m.Content {
			parts[i] = c.Text
			if c.Type != "text" {
				parts[i] = c.placeholder()
			}
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.Role(m.Role), Content: strings.Join(parts, "\n")})
	}
	return req
}

// Result is the CreateMessageResult sent back to the server.
type Result struct {
	Role       string      `json:"role"`
	Content    TextContent `json:"content"`
	Model      string      `json:"model"`
	StopReason string      `json:"stopReason"`
}

// TextContent is the reply's one text block.
type TextContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// resultOf is the result for the model's answer: cut at the first of
// the server's stop sequences (the model clients take none, so tai stops
// the text itself), with the stop reason named as MCP names it.
func (r Request) resultOf(model string, resp llm.Response) Result {
	text, stop := resp.Message.Content, resp.StopReason
	switch stop {
	case llm.StopEndTurn:
		stop = "endTurn"
	case llm.StopMaxTokens:
		stop = "maxTokens"
	}
	cut := -1
	for _, s := range r.StopSequences {
		if i := strings.Index(text, s); s != "" && i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut >= 0 {
		text, stop = text[:cut], "stopSequence"
	}
	return Result{Role: string(llm.RoleAssistant), Content: TextContent{Type: "text", Text: text}, Model: model, StopReason: stop}
}
