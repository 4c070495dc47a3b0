package anthropic

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"

	"tai/internal/llm"
	"tai/internal/llm/internal/provider"
)

// event is one streamed event; Type says which fields are set. Unknown
// event and block types are ignored, as the API's versioning asks.
type event struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Usage usage `json:"usage"`
	} `json:"message"`
	ContentBlock *wireBlock `json:"content_block"`
	Delta        *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		Thinking    string `json:"thinking"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *usage `json:"usage"`
}

type wireBlock struct {
	Type     string          `json:"type"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// neutral is u as tai counts it: the API's input_tokens are only those
// after the last cache breakpoint, so the prompt is the sum of the three.
func (u usage) neutral() llm.Usage {
	return llm.Usage{InputTokens: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens}
}

// stream is the state of one answer being read.
type stream struct {
	c      *Client
	b      *provider.Builder
	calls  map[int]*toolBlock // content-block index → tool_use in progress
	stop   string
	usage  llm.Usage
	closed bool // message_stop seen
}

type toolBlock struct {
	ordinal int
	input   json.RawMessage // from content_block_start
	gotArgs bool
}

func (c *Client) read(r *http.Response, b *provider.Builder) (llm.Response, error) {
	s := &stream{c: c, b: b, calls: map[int]*toolBlock{}}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		return s.whole(r.Body)
	}
	err := c.t.ReadEvents(r.Body, func(data []byte) (bool, error) {
		err := s.add(data)
		return s.closed, err
	}, func() bool { return s.stop != "" })
	if err != nil {
		return llm.Response{}, err
	}
	return s.done(), nil
}

// add applies one event.
func (s *stream) add(data []byte) error {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return s.c.t.Undecodable(data, err)
	}
	switch ev.Type {
	case "error":
		return s.c.t.StreamError(data)
	case "message_start":
		if ev.Message != nil {
			s.usage = ev.Message.Usage.neutral()
		}
	case "content_block_start":
		if ev.ContentBlock != nil {
			s.start(ev.Index, *ev.ContentBlock)
		}
	case "content_block_delta":
		if ev.Delta != nil {
			s.delta(ev.Index, ev.Delta.Type, ev.Delta.Text, ev.Delta.PartialJSON, ev.Delta.Thinking)
		}
	case "content_block_stop":
		s.end(ev.Index)
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			s.stop = ev.Delta.StopReason
		}
		if ev.Usage != nil && ev.Usage.OutputTokens > 0 {
			s.usage.OutputTokens = ev.Usage.OutputTokens
		}
	case "message_stop":
		s.closed = true
	}
	return nil
}

func (s *stream) start(index int, cb wireBlock) {
	switch cb.Type {
	case "text":
		s.b.Text(cb.Text)
	case "thinking":
		s.b.Reasoning(cb.Thinking)
	case "tool_use":
		s.calls[index] = &toolBlock{ordinal: s.b.StartCall(cb.ID, cb.Name), input: cb.Input}
	}
}

func (s *stream) delta(index int, typ, text, partialJSON, thinking string) {
	switch typ {
	case "text_delta":
		s.b.Text(text)
	case "thinking_delta":
		s.b.Reasoning(thinking)
	case "input_json_delta":
		if tb := s.calls[index]; tb != nil && partialJSON != "" {
			tb.gotArgs = true
			s.b.Args(tb.ordinal, partialJSON)
		}
	}
}

// end completes a tool_use block. Its arguments are the input_json_delta
// pieces; a block sent whole carries them in content_block_start.
func (s *stream) end(index int) {
	tb := s.calls[index]
	if tb == nil {
		return
	}
	if in := strings.TrimSpace(string(tb.input)); !tb.gotArgs && in != "" && in != "null" && in != "{}" {
		s.b.Args(tb.ordinal, string(tb.input))
	}
	s.b.EndCall(tb.ordinal)
	delete(s.calls, index)
}

func (s *stream) done() llm.Response {
	stop := s.stop
	switch stop {
	case "end_turn", "stop_sequence", "":
		stop = llm.StopEndTurn
	}
	// tool_use and max_tokens are already the neutral names.
	return s.b.Finish(stop, s.usage)
}

// whole reads an unstreamed message, from a proxy that ignored "stream".
func (s *stream) whole(body io.Reader) (llm.Response, error) {
	data, err := io.ReadAll(io.LimitReader(body, provider.MaxEvent))
	if err != nil {
		return llm.Response{}, err
	}
	var msg struct {
		Type       string      `json:"type"`
		Content    []wireBlock `json:"content"`
		StopReason string      `json:"stop_reason"`
		Usage      usage       `json:"usage"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		return llm.Response{}, s.c.t.Undecodable(data, err)
	}
	if msg.Type == "error" {
		return llm.Response{}, s.c.t.StreamError(data)
	}
	for i, cb := range msg.Content {
		s.start(i, cb)
		s.end(i)
	}
	s.stop = msg.StopReason
	s.usage = msg.Usage.neutral()
	return s.done(), nil
}
