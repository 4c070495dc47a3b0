// Package anthropic is tai's client for the Anthropic Messages API
// (POST {base}/v1/messages, streamed). Importing it registers the
// protocol with [llm.New].
package anthropic

import (
	"context"
	"strings"

	"tai/internal/llm"
	"tai/internal/llm/internal/provider"
)

// Version is the anthropic-version header tai speaks.
const Version = "2023-06-01"

// DefaultMaxTokens is the answer cap when neither the request nor the
// config sets one; the API requires a cap.
const DefaultMaxTokens = 8192

func init() {
	llm.Register(llm.ProtocolAnthropic, func(cfg llm.Config) (llm.Client, error) { return New(cfg) })
}

// Client completes conversations over the Messages API.
type Client struct {
	t provider.Transport
}

var _ llm.Client = (*Client)(nil)

// New returns a client for cfg, which it resolves first (see
// [llm.Config.Resolve]).
func New(cfg llm.Config) (*Client, error) {
	t, err := provider.For(cfg, llm.ProtocolAnthropic)
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// Complete implements [llm.Client].
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	body, err := c.encode(req)
	if err != nil {
		return llm.Response{}, err
	}
	header := map[string][]string{
		"Accept":            {"text/event-stream"},
		"Anthropic-Version": {Version},
	}
	if key := c.t.Config.APIKey; key != "" {
		header["X-Api-Key"] = []string{key}
	}
	return c.t.Stream(ctx, req.OnEvent, c.url(), header, body, c.read)
}

// url accepts a base URL with or without the trailing /v1.
func (c *Client) url() string {
	base := c.t.Config.BaseURL
	if strings.HasSuffix(base, "/v1") {
		return base + "/messages"
	}
	return base + "/v1/messages"
}
