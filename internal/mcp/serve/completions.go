package serve

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"tai/internal/llm"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// CompletionsName is the served completions tool.
const CompletionsName = "completions"

//go:embed completions.md
var completionsDescription string

// Completions is the served completions tool: one stateless completion
// with the default profile's model, no tools.
func Completions() *Tool {
	t := &Tool{
		Name:        CompletionsName,
		Description: strings.TrimSpace(completionsDescription),
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"messages":{"type":"array","minItems":1,"maxItems":1000,"description":"the conversation, oldest first","items":{"type":"object","properties":{` +
			`"role":{"type":"string","enum":["system","user","assistant"]},` +
			`"content":{"type":"string"}},` +
			`"required":["role","content"],"additionalProperties":false}}},` +
			`"required":["messages"],"additionalProperties":false}`),
		TaskSupport: TaskOptional,
		selfChecked: true,
	}
	t.Run = throughDoor(t.Name, t.InputSchema, runCompletions)
	return t
}

func runCompletions(ctx context.Context, c Call) (*wire.CallToolResult, error) {
	var in struct {
		Messages []struct {
			Role    llm.Role `json:"role"`
			Content string   `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(c.Args, &in); err != nil {
		return nil, invalidParams("completions: %v", err)
	}
	var req llm.Request
	var system []string
	for _, m := range in.Messages {
		if m.Role == llm.RoleSystem {
			system = append(system, m.Content)
			continue
		}
		req.Messages = append(req.Messages, llm.Message{Role: m.Role, Content: m.Content})
	}
	if len(req.Messages) == 0 {
		return nil, invalidParams("completions: messages holds only system messages; add a user message")
	}
	req.System = strings.Join(system, "\n\n")
	srv := c.session.srv
	if srv.opts.Host == nil {
		return TextResult("completions: this server has no model", true), nil
	}
	client, err := srv.opts.Host.Model(ctx)
	if err != nil {
		return TextResult("completions: "+err.Error(), true), nil
	}
	ctx, cancel := context.WithTimeout(ctx, srv.opts.ChatTimeout)
	defer cancel()
	resp, err := client.Complete(ctx, req)
	if err != nil {
		return TextResult("completions: "+err.Error(), true), nil
	}
	return TextResult(resp.Message.Content, false), nil
}

// Served returns what tai serves: every native tool, verbatim and in the
// order given, then chat and completions.
func Served(native []*tools.Tool) []*Tool {
	out := make([]*Tool, 0, len(native)+2)
	for _, t := range native {
		out = append(out, Native(t))
	}
	return append(out, Chat(), Completions())
}
