// Package openai is tai's client for the OpenAI-compatible chat
// completions API (POST {base}/chat/completions, streamed), spoken by
// OpenAI, OpenRouter, Groq, DeepSeek, Ollama, LM Studio, vLLM and the
// llama.cpp server. Importing it registers the protocol with [llm.New].
package openai

import (
	"context"

	"tai/internal/llm"
	"tai/internal/llm/internal/provider"
)

func init() {
	llm.Register(llm.ProtocolOpenAI, func(cfg llm.Config) (llm.Client, error) { return New(cfg) })
}

// Client completes conversations over the chat completions API.
type Client struct {
	t provider.Transport
	// maxTokensField is max_completion_tokens for OpenAI itself (its
	// reasoning models refuse max_tokens) and max_tokens for the
	// compatible servers, which mostly know only that.
	maxTokensField string
}

var _ llm.Client = (*Client)(nil)

// New returns a client for cfg, which it resolves first (see
// [llm.Config.Resolve]).
func New(cfg llm.Config) (*Client, error) {
	t, err := provider.For(cfg, llm.ProtocolOpenAI)
	if err != nil {
		return nil, err
	}
	c := &Client{t: t, maxTokensField: "max_tokens"}
	if t.Config.Provider == "openai" {
		c.maxTokensField = "max_completion_tokens"
	}
	return c, nil
}

// Complete implements [llm.Client].
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	body, err := c.encode(req)
	if err != nil {
		return llm.Response{}, err
	}
	header := map[string][]string{"Accept": {"text/event-stream"}}
	if key := c.t.Config.APIKey; key != "" {
		header["Authorization"] = []string{"Bearer " + key}
	}
	return c.t.Stream(ctx, req.OnEvent, c.t.Config.BaseURL+"/chat/completions", header, body, c.read)
}
