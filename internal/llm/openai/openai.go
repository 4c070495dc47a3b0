// Package openai is tai's client for the OpenAI-compatible chat
// completions API (POST {base}/chat/completions, streamed), spoken by
// OpenAI, OpenRouter, Groq, DeepSeek, Ollama, LM Studio, vLLM and the
// llama.cpp server. Importing it registers the protocol with [llm.New].
package openai

import (
	"context"
	"fmt"

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
	cfg, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	if p, _ := llm.PresetFor(cfg.Provider); p.Protocol != llm.ProtocolOpenAI {
		return nil, fmt.Errorf("openai: provider %s speaks %s", cfg.Provider, p.Protocol)
	}
	c := &Client{t: provider.Transport{Config: cfg}, maxTokensField: "max_tokens"}
	if cfg.Provider == "openai" {
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
	url := c.t.Config.BaseURL + "/chat/completions"
	var b *provider.Builder
	var resp llm.Response
	err = c.t.Do(ctx, req.OnEvent, func(ctx context.Context) (bool, error) {
		b = provider.NewBuilder(req.OnEvent)
		r, err := c.t.Post(ctx, url, header, body)
		if err != nil {
			return false, err
		}
		defer r.Body.Close()
		resp, err = c.read(r, b)
		return b.Committed(), err
	})
	if err != nil {
		return b.Partial(), err
	}
	return resp, nil
}
