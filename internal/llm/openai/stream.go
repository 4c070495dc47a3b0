package openai

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"

	"tai/internal/llm"
	"tai/internal/llm/internal/provider"
)

// chunk is one streamed chat.completion.chunk, or a whole chat.completion
// from a server that ignored "stream". Fields tai does not use
// (reasoning_content aside) are ignored, whatever the server adds.
type chunk struct {
	Choices []struct {
		Index        int    `json:"index"`
		Delta        delta  `json:"delta"`
		Message      *delta `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type delta struct {
	Content          string `json:"content"`
	ReasoningContent string `json:"reasoning_content"` // DeepSeek, vLLM
	Reasoning        string `json:"reasoning"`         // OpenRouter, Ollama
	ToolCalls        []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// stream is the state of one answer being read.
type stream struct {
	c       *Client
	b       *provider.Builder
	byIndex map[int]int // wire index → call ordinal
	finish  string
	usage   llm.Usage
}

// read reads an answer, streamed or whole.
func (c *Client) read(r *http.Response, b *provider.Builder) (llm.Response, error) {
	s := &stream{c: c, b: b, byIndex: map[int]int{}}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		data, err := io.ReadAll(io.LimitReader(r.Body, provider.MaxEvent))
		if err != nil {
			return llm.Response{}, err
		}
		if err := s.add(data); err != nil {
			return llm.Response{}, err
		}
		return s.done(), nil
	}
	// Servers end with [DONE]; one that stops without it is accepted only
	// if it said how the answer finished.
	err := c.t.ReadEvents(r.Body, func(data []byte) (bool, error) {
		if string(data) == "[DONE]" {
			return true, nil
		}
		return false, s.add(data)
	}, func() bool { return s.finish != "" })
	if err != nil {
		return llm.Response{}, err
	}
	return s.done(), nil
}

// add applies one chunk.
func (s *stream) add(data []byte) error {
	var ch chunk
	if err := json.Unmarshal(data, &ch); err != nil {
		return s.c.t.Undecodable(data, err)
	}
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		return s.c.t.StreamError(data)
	}
	if ch.Usage != nil {
		s.usage = llm.Usage{InputTokens: ch.Usage.PromptTokens, OutputTokens: ch.Usage.CompletionTokens}
		if d := ch.Usage.PromptTokensDetails; d != nil {
			s.usage.CacheReadTokens = d.CachedTokens
		}
	}
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue
		}
		d := choice.Delta
		if choice.Message != nil {
			d = *choice.Message
		}
		s.b.Reasoning(d.ReasoningContent + d.Reasoning)
		s.b.Text(d.Content)
		s.toolCalls(d)
		if choice.FinishReason != "" {
			s.finish = choice.FinishReason
		}
	}
	return nil
}

// toolCalls routes argument pieces to calls by their wire index. A server
// that omits the index sends each call whole or continues the last one; a
// server that reuses an index for a call with a new id started a new call.
func (s *stream) toolCalls(d delta) {
	for _, tc := range d.ToolCalls {
		i, known := 0, false
		if tc.Index != nil {
			i, known = s.byIndex[*tc.Index]
			if known && tc.ID != "" && s.b.CallID(i) != "" && tc.ID != s.b.CallID(i) {
				known = false
			}
		} else if last := s.b.Calls() - 1; last >= 0 &&
			(tc.ID != "" && tc.ID == s.b.CallID(last) || tc.ID == "" && tc.Function.Name == "") {
			i, known = last, true
		}
		if known {
			s.b.ID(i, tc.ID)
			s.b.Name(i, tc.Function.Name)
		} else {
			i = s.b.StartCall(tc.ID, tc.Function.Name)
			if tc.Index != nil {
				s.byIndex[*tc.Index] = i
			}
		}
		s.b.Args(i, arguments(tc.Function.Arguments))
	}
}

// arguments is the text of a call's arguments: a JSON string on the wire,
// though some servers send the object itself.
func arguments(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}

func (s *stream) done() llm.Response {
	stop := s.finish
	switch stop {
	case "stop", "":
		stop = llm.StopEndTurn
	case "tool_calls", "function_call":
		stop = llm.StopToolUse
	case "length":
		stop = llm.StopMaxTokens
	}
	return s.b.Finish(stop, s.usage)
}
