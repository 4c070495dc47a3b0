package cli

import (
	"context"
	"errors"

	"tai/internal/mcp/bridge"
	"tai/internal/repl"
)

// A conversation offers the REPL the MCP prompts of its profile's bridge:
// /SERVER:PROMPT runs one, Tab completes them and their arguments.
var _ repl.Prompts = (*chat)(nil)

// Prompts implements repl.Prompts: the approved prompts of the servers
// enabled for the profile, from the vault's cache.
func (c *chat) Prompts(ctx context.Context) []repl.Prompt {
	list, err := c.bridge.Prompts(ctx, "")
	if err != nil {
		return nil
	}
	var out []repl.Prompt
	for _, p := range list {
		if !p.Runnable() {
			continue
		}
		rp := repl.Prompt{Server: p.Server, Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			rp.Arguments = append(rp.Arguments, repl.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, rp)
	}
	return out
}

// GetPrompt implements repl.Prompts: the messages as text, redacted.
func (c *chat) GetPrompt(ctx context.Context, server, name string, words []string) ([]repl.PromptMessage, error) {
	res, err := c.bridge.GetPrompt(ctx, server, name, words)
	var missing *bridge.MissingArgumentError
	if errors.As(err, &missing) {
		a := missing.Argument
		return nil, &repl.MissingArgumentError{Argument: repl.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required}, Err: err}
	}
	if err != nil {
		return nil, err
	}
	out := make([]repl.PromptMessage, 0, len(res.Messages))
	for _, m := range res.Messages {
		out = append(out, repl.PromptMessage{Role: m.Role, Text: c.a.store.Redact(bridge.MessageText(m))})
	}
	return out, nil
}

// CompletePrompt implements repl.Prompts; a failure completes nothing.
func (c *chat) CompletePrompt(ctx context.Context, server, name string, done []string, partial string) []string {
	vals, _ := c.bridge.CompletePrompt(ctx, server, name, done, partial)
	return vals
}
