package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

// suite serves the resources, resource template, prompts and completions
// the suite's resources-*, prompts-* and completion-complete scenarios
// read, with the content each scenario's description asks for.
type suite struct{}

var (
	_ serve.Resources = suite{}
	_ serve.Prompts   = suite{}
	_ serve.Completer = suite{}
)

// templateURI is the suite's one resource template.
const templateURI = "test://template/{id}/data"

// staticResources are the suite's listed resources and their contents.
var staticResources = []struct {
	wire.Resource
	text, blob string
}{
	{wire.Resource{URI: "test://static-text", Name: "static-text", Description: "A static text resource", MIMEType: "text/plain"},
		"This is the content of the static text resource.", ""},
	{wire.Resource{URI: "test://static-binary", Name: "static-binary", Description: "A static binary resource (a PNG image)", MIMEType: "image/png"},
		"", pngPixel},
	{wire.Resource{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource to subscribe to", MIMEType: "text/plain"},
		"Watched resource content.", ""},
}

func (suite) ListResources(_ context.Context, cursor string) ([]wire.Resource, string, error) {
	if cursor != "" {
		return nil, "", serve.ErrBadCursor
	}
	out := make([]wire.Resource, 0, len(staticResources))
	for _, r := range staticResources {
		out = append(out, r.Resource)
	}
	return out, "", nil
}

func (suite) ResourceTemplates(context.Context) ([]wire.ResourceTemplate, error) {
	return []wire.ResourceTemplate{{URITemplate: templateURI, Name: "template-data",
		Description: "Data for the id in the URI", MIMEType: "application/json"}}, nil
}

func (suite) ReadResource(_ context.Context, uri string) ([]wire.ResourceContents, error) {
	for _, r := range staticResources {
		if r.URI != uri {
			continue
		}
		c := wire.ResourceContents{URI: uri, MIMEType: r.MIMEType}
		if r.blob != "" {
			c.Blob = &r.blob
		} else {
			c.Text = &r.text
		}
		return []wire.ResourceContents{c}, nil
	}
	if rest, ok := strings.CutPrefix(uri, "test://template/"); ok {
		if id, ok := strings.CutSuffix(rest, "/data"); ok && id != "" && !strings.Contains(id, "/") {
			b, _ := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			text := string(b)
			return []wire.ResourceContents{{URI: uri, MIMEType: "application/json", Text: &text}}, nil
		}
	}
	return nil, serve.ErrResourceNotFound
}

var prompts = []wire.Prompt{
	{Name: "test_simple_prompt", Description: "A simple prompt without arguments"},
	{Name: "test_prompt_with_arguments", Description: "A prompt with two required arguments",
		Arguments: []wire.PromptArgument{{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true}}},
	{Name: "test_prompt_with_embedded_resource", Description: "A prompt embedding a resource",
		Arguments: []wire.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
	{Name: "test_prompt_with_image", Description: "A prompt with an image"},
}

func (suite) ListPrompts(context.Context) ([]wire.Prompt, error) { return prompts, nil }

func (suite) GetPrompt(_ context.Context, name string, args map[string]string) (*wire.GetPromptResult, error) {
	for _, p := range prompts {
		if p.Name != name {
			continue
		}
		for _, a := range p.Arguments {
			if a.Required && args[a.Name] == "" {
				return nil, fmt.Errorf("%w: prompt %s needs argument %s", serve.ErrBadArguments, name, a.Name)
			}
		}
		return &wire.GetPromptResult{Messages: promptMessages(name, args)}, nil
	}
	return nil, fmt.Errorf("%w: %q", serve.ErrPromptNotFound, name)
}

func promptMessages(name string, args map[string]string) []wire.PromptMessage {
	user := func(block any) wire.PromptMessage {
		b, _ := json.Marshal(block)
		return wire.PromptMessage{Role: "user", Content: b}
	}
	text := func(s string) wire.PromptMessage { return user(map[string]string{"type": "text", "text": s}) }
	switch name {
	case "test_prompt_with_arguments":
		return []wire.PromptMessage{text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"]))}
	case "test_prompt_with_embedded_resource":
		return []wire.PromptMessage{
			user(map[string]any{"type": "resource", "resource": map[string]string{"uri": args["resourceUri"], "mimeType": "text/plain", "text": "Embedded resource content for testing."}}),
			text("Please process the embedded resource above."),
		}
	case "test_prompt_with_image":
		return []wire.PromptMessage{
			user(map[string]string{"type": "image", "data": pngPixel, "mimeType": "image/png"}),
			text("Please analyze the image above."),
		}
	}
	return []wire.PromptMessage{text("This is a simple prompt for testing.")}
}

// Complete offers a few values for each argument of the suite's prompts
// and for the template's id, those that start with the partial value.
func (suite) Complete(_ context.Context, p wire.CompleteParams) ([]string, error) {
	var all []string
	switch {
	case p.Ref.Type == "ref/resource" && p.Ref.URI == templateURI:
		all = []string{"1", "123", "456"}
	case p.Ref.Type == "ref/resource":
		return nil, fmt.Errorf("%w: no template %q", serve.ErrResourceNotFound, p.Ref.URI)
	case p.Ref.Name == "test_prompt_with_arguments":
		all = []string{"paris", "park", "party", "test", "testValue1"}
	case p.Ref.Name == "test_prompt_with_embedded_resource":
		all = []string{"test://example-resource", "test://static-text"}
	default:
		return nil, fmt.Errorf("%w: %q", serve.ErrPromptNotFound, p.Ref.Name)
	}
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, p.Argument.Value) {
			out = append(out, v)
		}
	}
	return out, nil
}

// logging sends the three info messages of tools-call-with-logging, about
// 50 ms apart as the scenario asks, so that a client hears them during
// the call.
func logging(name string) *serve.Tool {
	return &serve.Tool{
		Name:        name,
		Description: "Sends three log messages at info level while it runs.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			for i, text := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if i > 0 && !pause(ctx) {
					return nil, ctx.Err()
				}
				c.Log("info", name, text)
			}
			return serve.TextResult("Logging tool finished: sent 3 log messages.", false), nil
		},
	}
}

// progress reports 0, 50 and 100 of 100, about 50 ms apart, as
// tools-call-with-progress asks.
func progress() *serve.Tool {
	return &serve.Tool{
		Name:        "test_tool_with_progress",
		Description: "Reports progress 0, 50 and 100 of 100 while it runs.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			total := 100.0
			for i, p := range []float64{0, 50, 100} {
				if i > 0 && !pause(ctx) {
					return nil, ctx.Err()
				}
				c.Progress(p, &total, fmt.Sprintf("%.0f of 100", p))
			}
			return serve.TextResult("Progress tool finished.", false), nil
		},
	}
}

// pause waits the scenarios' 50 ms; false when the call was cancelled.
func pause(ctx context.Context) bool {
	t := time.NewTimer(50 * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
