package llmtest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

func user(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }

// A long-running fake answers any number of turns from its rules, each
// rule a multi-step exchange keyed on the last user message.
func TestRules(t *testing.T) {
	script, err := llmtest.LoadScript("testdata/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"openai", "anthropic"} {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.Start(t, script)
			c := srv.Client(t, p)
			var history []llm.Message
			say := func(msg llm.Message) llm.Response {
				t.Helper()
				history = append(history, msg)
				resp, err := c.Complete(context.Background(), llm.Request{Messages: history})
				if err != nil {
					t.Fatal(err)
				}
				history = append(history, resp.Message)
				return resp
			}
			if got := say(user("hello")).Message.Content; got != "scripted first" {
				t.Errorf("first answer %q, want the scripted turn", got)
			}
			for round := range 2 { // rules repeat
				resp := say(user("please List Files"))
				calls := resp.Message.ToolCalls
				if len(calls) != 1 || calls[0].Name != "list_dir" || calls[0].Arguments != `{"path":"."}` {
					t.Fatalf("round %d: calls %+v", round, calls)
				}
				resp = say(llm.Message{Role: llm.RoleTool, ToolCallID: calls[0].ID, Content: "a.go"})
				if resp.Message.Content != "Here they are." {
					t.Errorf("round %d: after the tool, %q", round, resp.Message.Content)
				}
			}
			if got := say(user("what now?")).Message.Content; got != "You said: what now?" {
				t.Errorf("catch-all answered %q", got)
			}
			if n := len(srv.Requests()); n != 6 {
				t.Errorf("%d requests, want 6", n)
			}
		})
	}
}

func TestRules_RanOut(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Rules: []llmtest.Rule{{Match: "x", Turns: []llmtest.Turn{{Text: llmtest.Chunks{"1"}}}}}})
	c := srv.Client(t, "openai")
	msgs := []llm.Message{user("x"), {Role: llm.RoleAssistant, Content: "1"}, user("y")}
	tests := []struct {
		msgs []llm.Message
		want string
	}{
		{msgs, `openai: request rejected (400): llmtest: no rule matches "y"`},
		{append(msgs[:2:2], llm.Message{Role: llm.RoleAssistant, Content: "again"}),
			`openai: request rejected (400): llmtest: rule "x" has no turn 3`},
	}
	for _, tt := range tests {
		_, err := c.Complete(context.Background(), llm.Request{Messages: tt.msgs})
		if err == nil || err.Error() != tt.want {
			t.Errorf("err = %v, want %s", err, tt.want)
		}
	}
}

func TestScriptExhausted(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"one"}}}})
	c := srv.Client(t, "anthropic")
	req := llm.Request{Messages: []llm.Message{user("hi")}}
	if _, err := c.Complete(context.Background(), req); err != nil || srv.Unused() != 0 {
		t.Fatalf("first: %v, unused %d", err, srv.Unused())
	}
	_, err := c.Complete(context.Background(), req)
	if want := "anthropic: request rejected (400): llmtest: no scripted turn for request 2"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

// The fake refuses what the real APIs refuse, so a broken history fails
// a test instead of failing in front of a user.
func TestValidation(t *testing.T) {
	call := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}}}
	tests := []struct {
		name  string
		req   llm.Request
		wants string
	}{
		{"unanswered call", llm.Request{Messages: []llm.Message{user("a"), call, user("b")}},
			"messages.2: tool calls [c1] have no tool results before this message"},
		{"unanswered call at the end", llm.Request{Messages: []llm.Message{user("a"), call}},
			"messages: tool calls [c1] have no tool results"},
		{"stray result", llm.Request{Messages: []llm.Message{user("a"), {Role: llm.RoleAssistant, Content: "b"}, {Role: llm.RoleTool, ToolCallID: "zz", Content: "x"}}},
			`messages.2: tool result for "zz" does not answer a tool call of the preceding assistant message`},
		{"bad tool name", llm.Request{Messages: []llm.Message{user("a")}, Tools: []llm.ToolSpec{{Name: "fs.read"}}},
			`tools: name "fs.read" must match ^[a-zA-Z0-9_-]{1,64}$`},
		{"duplicate tool", llm.Request{Messages: []llm.Message{user("a")}, Tools: []llm.ToolSpec{{Name: "f"}, {Name: "f"}}},
			`tools: tool names must be unique, "f" repeats`},
		{"schema not an object", llm.Request{Messages: []llm.Message{user("a")}, Tools: []llm.ToolSpec{{Name: "f", Parameters: []byte(`{"type":"string"}`)}}},
			"tools: f: the parameters schema must be a JSON object of type object"},
		{"no messages", llm.Request{}, "messages: at least one message is required"},
	}
	for _, tt := range tests {
		for _, p := range []string{"openai", "anthropic"} {
			t.Run(tt.name+"/"+p, func(t *testing.T) {
				srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}})
				_, err := srv.Client(t, p).Complete(context.Background(), tt.req)
				if want := p + ": request rejected (400): " + tt.wants; err == nil || err.Error() != want {
					t.Fatalf("err = %v\nwant %s", err, want)
				}
				if r := srv.Requests(); len(r) != 1 || r[0].Invalid != tt.wants || srv.Unused() != 1 {
					t.Errorf("recorded %+v, unused %d: want the refusal recorded and the turn kept", r, srv.Unused())
				}
			})
		}
	}
}

func TestLenient(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Lenient: true, Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}})
	_, err := srv.Client(t, "openai").Complete(context.Background(), llm.Request{Messages: []llm.Message{
		{Role: llm.RoleTool, ToolCallID: "zz", Content: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestWrongPath(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	if status, _ := srv.Post(t, "/v2/complete", "{}", nil); status != 404 || len(srv.Requests()) != 0 {
		t.Fatalf("status %d, %d requests recorded", status, len(srv.Requests()))
	}
}

func TestUndecodableBodyIsRecorded(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	status, _ := srv.Post(t, "/v1/messages", "not json", nil)
	r := srv.Requests()
	if status != 400 || len(r) != 1 || !strings.HasPrefix(r[0].Invalid, "bad request body: ") {
		t.Fatalf("status %d, recorded %+v", status, r)
	}
	if _, err := json.Marshal(r[0]); err != nil || string(r[0].Body) != `"not json"` {
		t.Fatalf("recorded body %s is not kept as JSON: %v", r[0].Body, err)
	}
}

func TestLoadScript(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s, err := llmtest.LoadScript(write("ok.json", `{"api_key":"k","turns":[{"text":"a"},{"text":["b","c"],
		"tool_calls":[{"id":"i","name":"n","arguments":"{}"}]},{"status":429,"retry_after":"2","error":{"message":"m"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := llmtest.Script{APIKey: "k", Turns: []llmtest.Turn{
		{Text: llmtest.Chunks{"a"}},
		{Text: llmtest.Chunks{"b", "c"}, ToolCalls: []llmtest.Call{{ID: "i", Name: "n", Arguments: llmtest.Chunks{"{}"}}}},
		{Status: 429, RetryAfter: "2", Error: &llmtest.APIError{Message: "m"}},
	}}
	if diff := cmp.Diff(want, s, cmp.AllowUnexported(llmtest.Rule{})); diff != "" {
		t.Errorf("script (-want +got):\n%s", diff)
	}
	bad := []struct{ body, err string }{
		{`{"turns":[{"txt":"a"}]}`, `json: unknown field "txt"`},
		{`{"turns":[{"text":3}]}`, "want a string or a list of strings"},
		{`{"rules":[{"match":"(","turns":[{}]}]}`, "rule 1: error parsing regexp"},
		{`{"rules":[{"match":"a"}]}`, "rule 1 has no turns"},
	}
	for _, b := range bad {
		if _, err := llmtest.LoadScript(write("bad.json", b.body)); err == nil || !strings.Contains(err.Error(), b.err) {
			t.Errorf("LoadScript(%s) err = %v, want it to mention %q", b.body, err, b.err)
		}
	}
	if _, err := llmtest.LoadScript(filepath.Join(dir, "missing.json")); err == nil || !strings.HasPrefix(err.Error(), "reading script: ") {
		t.Errorf("missing file: %v", err)
	}
}

func TestAnthropicVersionRequired(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}})
	body := `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
	status, _ := srv.Post(t, "/v1/messages", body, nil)
	if r := srv.Requests(); status != 400 || r[0].Invalid != "anthropic-version: header is required" {
		t.Fatalf("status %d, invalid %q", status, r[0].Invalid)
	}
}
