package llm_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

// The behaviour tests below run against both protocols: the same script
// is served in each wire shape and must give the same Response.
var protocols = []string{"openai", "anthropic"}

// run completes req against a fake playing script, with cfg adjusted by
// tune, and returns what came back and every event seen.
func run(t *testing.T, provider string, script llmtest.Script, req llm.Request, tune func(*llm.Config)) (*llmtest.Server, llm.Response, []llm.Event, error) {
	t.Helper()
	srv := llmtest.Start(t, script)
	cfg := srv.Config(provider)
	if tune != nil {
		tune(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var events []llm.Event
	prev := req.OnEvent
	req.OnEvent = func(ev llm.Event) {
		events = append(events, ev)
		if prev != nil {
			prev(ev)
		}
	}
	if req.Messages == nil {
		req.Messages = []llm.Message{{Role: llm.RoleUser, Content: "hi"}}
	}
	resp, err := c.Complete(context.Background(), req)
	return srv, resp, events, err
}

func TestComplete_TextInChunks(t *testing.T) {
	script := llmtest.Script{Turns: []llmtest.Turn{{
		Reasoning: llmtest.Chunks{"think", "ing"},
		Text:      llmtest.Chunks{"Hel", "lo, ", "wor", "ld"},
		Usage:     &llm.Usage{InputTokens: 12, OutputTokens: 4},
	}}}
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			_, resp, events, err := run(t, p, script, llm.Request{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := llm.Response{
				Message:    llm.Message{Role: llm.RoleAssistant, Content: "Hello, world"},
				StopReason: llm.StopEndTurn,
				Usage:      llm.Usage{InputTokens: 12, OutputTokens: 4},
			}
			if diff := cmp.Diff(want, resp); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
			var text, reasoning string
			for _, ev := range events {
				switch ev.Kind {
				case llm.EventText:
					text += ev.Text + "|"
				case llm.EventReasoning:
					reasoning += ev.Text + "|"
				}
			}
			if text != "Hel|lo, |wor|ld|" || reasoning != "think|ing|" {
				t.Errorf("streamed text %q, reasoning %q", text, reasoning)
			}
			last := events[len(events)-1]
			if last.Kind != llm.EventDone || last.Response == nil || last.Response.Message.Content != "Hello, world" {
				t.Errorf("last event = %+v, want done with the response", last)
			}
		})
	}
}

func TestComplete_ParallelToolCalls(t *testing.T) {
	calls := []llmtest.Call{
		{ID: "call_a", Name: "read_file", Arguments: llmtest.Chunks{`{"pa`, `th":"a`, `.go"}`}},
		{ID: "call_b", Name: "list_dir", Arguments: llmtest.Chunks{`{"path"`, `:"."}`}},
		{ID: "call_c", Name: "now"},
	}
	wantCalls := []llm.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "call_b", Name: "list_dir", Arguments: `{"path":"."}`},
		{ID: "call_c", Name: "now", Arguments: `{}`},
	}
	for _, p := range protocols {
		for _, interleave := range []bool{false, true} {
			t.Run(p, func(t *testing.T) {
				script := llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"Looking."}, ToolCalls: calls, Interleave: interleave}}}
				_, resp, events, err := run(t, p, script, llm.Request{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := llm.Message{Role: llm.RoleAssistant, Content: "Looking.", ToolCalls: wantCalls}
				if diff := cmp.Diff(want, resp.Message); diff != "" {
					t.Errorf("message (-want +got):\n%s", diff)
				}
				if resp.StopReason != llm.StopToolUse {
					t.Errorf("stop reason %q, want %q", resp.StopReason, llm.StopToolUse)
				}
				// Per call: one start, the deltas in order, one complete call.
				args := map[int]string{}
				var complete []llm.ToolCall
				for _, ev := range events {
					switch ev.Kind {
					case llm.EventToolCallStart:
						if ev.ToolCall.ID != wantCalls[ev.Index].ID || ev.ToolCall.Name != wantCalls[ev.Index].Name {
							t.Errorf("start %d = %+v", ev.Index, ev.ToolCall)
						}
					case llm.EventToolCallDelta:
						args[ev.Index] += ev.Text
					case llm.EventToolCall:
						if ev.Index != len(complete) {
							t.Errorf("complete call %d reported as index %d", len(complete), ev.Index)
						}
						complete = append(complete, *ev.ToolCall)
					}
				}
				if diff := cmp.Diff(wantCalls, complete); diff != "" {
					t.Errorf("complete-call events (-want +got):\n%s", diff)
				}
				if args[0] != wantCalls[0].Arguments || args[1] != wantCalls[1].Arguments || args[2] != "" {
					t.Errorf("argument deltas = %v", args)
				}
			})
		}
	}
}

// What the client sends must be what the agent meant: the fake decodes
// each wire back into neutral messages, so one expectation serves both.
func TestComplete_SendsHistoryAndTools(t *testing.T) {
	schema := `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`
	req := llm.Request{
		System: "You are tai.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "read a.go and b.go"},
			{Role: llm.RoleAssistant, Content: "Reading.", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`},
				{ID: "call_2", Name: "read_file", Arguments: `{"path": "b.go"`}, // malformed
			}},
			{Role: llm.RoleTool, ToolCallID: "call_1", Name: "read_file", Content: "package a"},
			{Role: llm.RoleTool, ToolCallID: "call_2", Name: "read_file", Content: "malformed arguments", IsError: true},
			{Role: llm.RoleAssistant, Content: "a.go is package a."},
			{Role: llm.RoleUser, Content: "thanks"},
		},
		Tools: []llm.ToolSpec{
			{Name: "read_file", Description: "Read a file.", Parameters: []byte(schema)},
			{Name: "now", Description: "The time."},
		},
		MaxTokens: 1000,
	}
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			srv, _, _, err := run(t, p, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}}, req, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()
			if len(got) != 1 {
				t.Fatalf("%d requests, want 1", len(got))
			}
			r := got[0]
			wantMsgs := append([]llm.Message(nil), req.Messages...)
			wantMsgs[1].ToolCalls = []llm.ToolCall{
				{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`},
				{ID: "call_2", Name: "read_file", Arguments: `{}`},
			}
			if p == "openai" {
				wantMsgs[3].IsError = false // the wire has no error flag
			}
			if diff := cmp.Diff(wantMsgs, r.Messages); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			wantTools := []llm.ToolSpec{
				{Name: "read_file", Description: "Read a file.", Parameters: []byte(schema)},
				{Name: "now", Description: "The time.", Parameters: []byte(`{"type":"object","properties":{}}`)},
			}
			if diff := cmp.Diff(wantTools, r.Tools); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if r.System != "You are tai." || r.Model != "llmtest-model" || r.MaxTokens != 1000 || !r.Stream || r.Invalid != "" {
				t.Errorf("request = system %q model %q max %d stream %v invalid %q", r.System, r.Model, r.MaxTokens, r.Stream, r.Invalid)
			}
		})
	}
}

func TestComplete_RequestModelOverrides(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			srv, _, _, err := run(t, p, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}},
				llm.Request{Model: "other-model"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if m := srv.Requests()[0].Model; m != "other-model" {
				t.Fatalf("sent model %q, want other-model", m)
			}
		})
	}
}
