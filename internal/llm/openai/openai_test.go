package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/llm/openai"
)

var hello = []llm.Message{{Role: llm.RoleUser, Content: "hi"}}

func TestNew_RefusesOtherProtocol(t *testing.T) {
	_, err := openai.New(llm.Config{Provider: "anthropic", Model: "m", APIKey: "k"})
	if err == nil || err.Error() != "openai: provider anthropic speaks anthropic" {
		t.Fatalf("err = %v", err)
	}
}

// The body differs by server: OpenAI's reasoning models want
// max_completion_tokens, the compatible servers max_tokens; a local
// server without a key gets no Authorization header.
func TestRequest_Body(t *testing.T) {
	tests := []struct {
		provider, key, maxField, auth string
	}{
		{"openai", llmtest.Key, "max_completion_tokens", "Bearer " + llmtest.Key},
		{"ollama", "", "max_tokens", ""},
		{"openrouter", llmtest.Key, "max_tokens", "Bearer " + llmtest.Key},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}})
			cfg := srv.Config(tt.provider)
			cfg.APIKey = tt.key
			cfg.MaxTokens = 321
			cfg.Header = map[string][]string{"X-Title": {"tai"}}
			c, err := openai.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{
				{Role: llm.RoleUser, Content: "go"},
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "now", Arguments: "{}"}}},
				{Role: llm.RoleTool, ToolCallID: "c1", Content: "noon"},
			}})
			if err != nil {
				t.Fatal(err)
			}
			r := srv.Requests()[0]
			if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != tt.auth || r.Header.Get("X-Title") != "tai" {
				t.Errorf("path %s, Authorization %q, X-Title %q", r.Path, r.Header.Get("Authorization"), r.Header.Get("X-Title"))
			}
			var body map[string]any
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			if body[tt.maxField] != 321.0 || body["stream"] != true {
				t.Errorf("%s = %v, stream = %v", tt.maxField, body[tt.maxField], body["stream"])
			}
			if opts, _ := body["stream_options"].(map[string]any); opts["include_usage"] != true {
				t.Errorf("stream_options = %v", body["stream_options"])
			}
			assistant := body["messages"].([]any)[1].(map[string]any)
			if content, present := assistant["content"]; !present || content != nil {
				t.Errorf("tool-only assistant content = %v (present %v), want null", content, present)
			}
		})
	}
}

func chunk(delta string) string {
	return `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
}

func finish(reason string) string {
	return `data: {"choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}` + "\n\n"
}

const done = "data: [DONE]\n\n"

// Servers differ from OpenAI in small ways; each case is a shape seen in
// the wild.
func TestStream_Tolerates(t *testing.T) {
	tests := []struct {
		name        string
		contentType string
		body        string
		want        llm.Response
		reasoning   string
	}{
		{name: "reasoning fields and extras",
			body: chunk(`{"role":"assistant","content":null,"reasoning_content":"hmm"}`) +
				chunk(`{"reasoning":" more","refusal":null}`) + chunk(`{"content":"Hi"}`) + finish("stop") +
				`data: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11,"prompt_tokens_details":{"cached_tokens":0}}}` + "\n\n" + done,
			want:      llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "Hi"}, StopReason: llm.StopEndTurn, Usage: llm.Usage{InputTokens: 9, OutputTokens: 2}},
			reasoning: "hmm more"},
		{name: "calls without index, whole, finish stop",
			body: chunk(`{"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]}`) +
				chunk(`{"tool_calls":[{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]}`) + finish("stop") + done,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Arguments: `{"x":1}`}, {ID: "b", Name: "g", Arguments: `{}`}}}, StopReason: llm.StopToolUse}},
		{name: "call without index continued",
			body: chunk(`{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}`) +
				chunk(`{"tool_calls":[{"id":"a","function":{"arguments":":1"}}]}`) +
				chunk(`{"tool_calls":[{"function":{"arguments":"}"}}]}`) + finish("tool_calls") + done,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Arguments: `{"x":1}`}}}, StopReason: llm.StopToolUse}},
		{name: "index reused for a new call",
			body: chunk(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}`) +
				chunk(`{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":""}}]}`) +
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"y\":2}"}}]}`) + finish("tool_calls") + done,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Arguments: `{}`}, {ID: "b", Name: "g", Arguments: `{"y":2}`}}}, StopReason: llm.StopToolUse}},
		{name: "name in pieces, then repeated",
			body: chunk(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"read"}}]}`) +
				chunk(`{"tool_calls":[{"index":0,"function":{"name":"_file","arguments":"{}"}}]}`) +
				chunk(`{"tool_calls":[{"index":0,"function":{"name":"read_file"}}]}`) + finish("tool_calls") + done,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "read_file", Arguments: `{}`}}}, StopReason: llm.StopToolUse}},
		{name: "arguments as an object",
			body: chunk(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":{"x":1}}}]}`) + finish("tool_calls") + done,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Arguments: `{"x":1}`}}}, StopReason: llm.StopToolUse}},
		{name: "no [DONE] after finish_reason",
			body: chunk(`{"content":"ok"}`) + finish("length"),
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "ok"}, StopReason: llm.StopMaxTokens}},
		{name: "[DONE] without finish_reason, no final newline",
			body: chunk(`{"content":"ok"}`) + "data: [DONE]",
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "ok"}, StopReason: llm.StopEndTurn}},
		{name: "keep-alive comments and CRLF",
			body: ": OPENROUTER PROCESSING\r\n\r\n" + strings.ReplaceAll(chunk(`{"content":"ok"}`), "\n", "\r\n") + done,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "ok"}, StopReason: llm.StopEndTurn}},
		{name: "an unstreamed answer", contentType: "application/json",
			body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole",` +
				`"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}],` +
				`"usage":{"prompt_tokens":3,"completion_tokens":4}}`,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "whole", ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Arguments: `{}`}}}, StopReason: llm.StopToolUse, Usage: llm.Usage{InputTokens: 3, OutputTokens: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := tt.contentType
			if ct == "" {
				ct = "text/event-stream"
			}
			srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Raw: tt.body, ContentType: ct}}})
			var reasoning string
			resp, err := srv.Client(t, "openai").Complete(context.Background(), llm.Request{Messages: hello,
				OnEvent: func(ev llm.Event) {
					if ev.Kind == llm.EventReasoning {
						reasoning += ev.Text
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, resp); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
			if reasoning != tt.reasoning {
				t.Errorf("reasoning %q, want %q", reasoning, tt.reasoning)
			}
		})
	}
}

func TestStream_MissingCallIDIsMadeUp(t *testing.T) {
	body := chunk(`{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}]}`) + finish("tool_calls") + done
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Raw: body, ContentType: "text/event-stream"}}})
	resp, err := srv.Client(t, "openai").Complete(context.Background(), llm.Request{Messages: hello})
	if err != nil {
		t.Fatal(err)
	}
	if calls := resp.Message.ToolCalls; len(calls) != 1 || !strings.HasPrefix(calls[0].ID, "call_") || len(calls[0].ID) != 21 {
		t.Fatalf("calls = %+v, want one with a made-up id", calls)
	}
}
