package anthropic_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm"
	"tai/internal/llm/anthropic"
	"tai/internal/llm/llmtest"
)

var hello = []llm.Message{{Role: llm.RoleUser, Content: "hi"}}

func TestNew_RefusesOtherProtocol(t *testing.T) {
	_, err := anthropic.New(llm.Config{Provider: "groq", Model: "m", APIKey: "k"})
	if err == nil || err.Error() != "anthropic: provider groq speaks openai" {
		t.Fatalf("err = %v", err)
	}
}

const ephemeral = `"cache_control":{"type":"ephemeral"}`

// The raw body, as the API documents it: one system block, alternating
// turns, tool results first in one user message, ids the API accepts, and
// cache breakpoints on the system prompt, the end of the history and the
// end of the user message before it.
func TestRequest_Body(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}})
	cfg := srv.Config("anthropic")
	cfg.BaseURL += "/v1/" // tolerated
	c, err := anthropic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), llm.Request{
		System: "Be brief.",
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "Project: tai."},
			{Role: llm.RoleUser, Content: "time"},
			{Role: llm.RoleUser, Content: "and date"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "call:1/x", Name: "now", Arguments: `{}`},
				{ID: "call_2", Name: "today", Arguments: ``},
			}},
			{Role: llm.RoleTool, ToolCallID: "call:1/x", Content: "noon"},
			{Role: llm.RoleTool, ToolCallID: "call_2", Content: "", IsError: true},
			{Role: llm.RoleUser, Content: "thanks"},
			{Role: llm.RoleAssistant, Content: ""},
			{Role: llm.RoleUser, Content: "bye"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != llmtest.Key || r.Header.Get("Anthropic-Version") != anthropic.Version {
		t.Errorf("path %s, headers %v", r.Path, r.Header)
	}
	want := `{"model":"llmtest-model","max_tokens":8192,"system":[{"type":"text","text":"Be brief.\n\nProject: tai.",` + ephemeral + `}],"messages":[` +
		`{"role":"user","content":[{"type":"text","text":"time"},{"type":"text","text":"and date",` + ephemeral + `}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"call_1_x","name":"now","input":{}},{"type":"tool_use","id":"call_2","name":"today","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1_x","content":"noon"},{"type":"tool_result","tool_use_id":"call_2","is_error":true},` +
		`{"type":"text","text":"thanks"},{"type":"text","text":"bye",` + ephemeral + `}]}],"stream":true}`
	if diff := cmp.Diff(want, string(r.Body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}

func TestRequest_MaxTokens(t *testing.T) {
	tests := []struct{ cfg, req, want int }{{0, 0, 8192}, {500, 0, 500}, {500, 70, 70}}
	for _, tt := range tests {
		srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}})
		cfg := srv.Config("anthropic")
		cfg.MaxTokens = tt.cfg
		c, _ := anthropic.New(cfg)
		if _, err := c.Complete(context.Background(), llm.Request{Messages: hello, MaxTokens: tt.req}); err != nil {
			t.Fatal(err)
		}
		if got := srv.Requests()[0].MaxTokens; got != tt.want {
			t.Errorf("config %d, request %d: sent %d, want %d", tt.cfg, tt.req, got, tt.want)
		}
	}
}

func ev(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }

const start = `{"type":"message_start","message":{"id":"m","usage":{"input_tokens":5,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":1}}}`

func TestStream_Tolerates(t *testing.T) {
	tests := []struct {
		name        string
		contentType string
		body        string
		want        llm.Response
	}{
		{name: "unknown events and blocks are ignored",
			body: ev("message_start", start) + ev("ping", `{"type":"ping"}`) +
				ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}`) +
				ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
				ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"Hi"}}`) +
				ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{}}}`) +
				ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" there"}}`) +
				ev("content_block_stop", `{"type":"content_block_stop","index":1}`) +
				ev("future_event", `{"type":"future_event"}`) +
				ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`) +
				ev("message_stop", `{"type":"message_stop"}`),
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "Hi there"}, StopReason: llm.StopEndTurn,
				Usage: llm.Usage{InputTokens: 1105, OutputTokens: 7, CacheReadTokens: 1000, CacheWriteTokens: 100}}},
		{name: "tool input whole in the start event, stream ends without message_stop",
			body: ev("message_start", start) +
				ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{"x":1}}}`) +
				ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
				ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}}`),
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "t", Name: "f", Arguments: `{"x":1}`}}},
				StopReason: llm.StopToolUse, Usage: llm.Usage{InputTokens: 1105, OutputTokens: 3, CacheReadTokens: 1000, CacheWriteTokens: 100}}},
		{name: "an unstreamed message", contentType: "application/json",
			body: `{"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":"whole"},` +
				`{"type":"tool_use","id":"t","name":"f","input":{"x":1}}],"stop_reason":"tool_use","usage":{"input_tokens":2,"output_tokens":3}}`,
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "whole", ToolCalls: []llm.ToolCall{{ID: "t", Name: "f", Arguments: `{"x":1}`}}},
				StopReason: llm.StopToolUse, Usage: llm.Usage{InputTokens: 2, OutputTokens: 3}}},
		{name: "refusal passes through",
			body: ev("message_start", start) +
				ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":1}}`) +
				ev("message_stop", `{"type":"message_stop"}`),
			want: llm.Response{Message: llm.Message{Role: llm.RoleAssistant}, StopReason: "refusal", Usage: llm.Usage{InputTokens: 1105, OutputTokens: 1, CacheReadTokens: 1000, CacheWriteTokens: 100}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := tt.contentType
			if ct == "" {
				ct = "text/event-stream"
			}
			srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Raw: tt.body, ContentType: ct}}})
			resp, err := srv.Client(t, "anthropic").Complete(context.Background(), llm.Request{Messages: hello})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, resp); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
		})
	}
}

// Thinking streams as reasoning events and stays out of the answer.
func TestStream_Thinking(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Reasoning: llmtest.Chunks{"a", "b"}, Text: llmtest.Chunks{"c"}}}})
	var reasoning []string
	resp, err := srv.Client(t, "anthropic").Complete(context.Background(), llm.Request{Messages: hello, OnEvent: func(e llm.Event) {
		if e.Kind == llm.EventReasoning {
			reasoning = append(reasoning, e.Text)
		}
	}})
	if err != nil || resp.Message.Content != "c" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, reasoning); diff != "" {
		t.Errorf("reasoning (-want +got):\n%s", diff)
	}
}
