package agent

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

// testTools are small real tools: echo is safe, note is not (it appends to
// a list the test reads).
type testTools struct {
	mu    sync.Mutex
	notes []string
}

func (tt *testTools) registry() *tools.Registry {
	return tools.NewRegistry(
		tools.Raw(tools.Tool{Name: "echo", Description: "echo text back", Safe: tools.AlwaysSafe,
			Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
			func(ctx context.Context, c tools.Call) (tools.Result, error) {
				var in struct{ Text string }
				json.Unmarshal(c.Args, &in)
				return tools.Text("echo: " + in.Text), nil
			}),
		tools.Raw(tools.Tool{Name: "note", Description: "write a note",
			Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
			Consent: func(c tools.Call) tools.Consent {
				return tools.Consent{Title: "note " + string(c.Args), Grants: []tools.Grant{{Kind: tools.GrantTool, Subject: "note"}}}
			}},
			func(ctx context.Context, c tools.Call) (tools.Result, error) {
				var in struct{ Text string }
				json.Unmarshal(c.Args, &in)
				tt.mu.Lock()
				tt.notes = append(tt.notes, in.Text)
				tt.mu.Unlock()
				return tools.Text("noted"), nil
			}),
		tools.Raw(tools.Tool{Name: "fail", Description: "always fails", Safe: tools.AlwaysSafe},
			func(ctx context.Context, c tools.Call) (tools.Result, error) {
				return tools.Errorf("it failed on purpose"), nil
			}),
	)
}

type fixture struct {
	srv    *llmtest.Server
	agent  *Agent
	tt     *testTools
	store  *vault.Store
	events []Event
}

func newFixture(t *testing.T, provider string, script llmtest.Script) *fixture {
	t.Helper()
	ctx := context.Background()
	store, err := vault.Open(ctx, filepath.Join(t.TempDir(), "home"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f := &fixture{srv: llmtest.Start(t, script), tt: &testTools{}, store: store}
	reg := f.tt.registry()
	env := &tools.Env{Dir: t.TempDir(), Store: store, Profile: vault.DefaultProfile, State: &tools.State{}}
	f.agent = &Agent{
		Client: f.srv.Client(t, provider), Tools: reg, Selector: AllTools{Registry: reg},
		Approver: &Approver{Mode: profile.ApprovalYolo, Store: store, Profile: vault.DefaultProfile},
		Env:      env, System: "test system",
	}
	return f
}

func (f *fixture) run(t *testing.T, input string) (TurnResult, error) {
	t.Helper()
	return f.agent.RunTurn(context.Background(), input, TurnOptions{OnEvent: func(e Event) { f.events = append(f.events, e) }})
}

func (f *fixture) types() []string {
	var out []string
	for _, e := range f.events {
		if e.Type != EventWaiting {
			out = append(out, string(e.Type))
		}
	}
	return out
}

func call(name, args string) llmtest.Call {
	return llmtest.Call{Name: name, Arguments: llmtest.Chunks{args}}
}

func TestRunTurn_ThreeSteps(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			f := newFixture(t, provider, llmtest.Script{Turns: []llmtest.Turn{
				{Text: llmtest.Chunks{"Let me ", "look."}, ToolCalls: []llmtest.Call{{Name: "echo", Arguments: llmtest.Chunks{`{"te`, `xt":"one"}`}}}},
				{ToolCalls: []llmtest.Call{call("echo", `{"text":"two"}`), call("note", `{"text":"three"}`)}, Interleave: provider == "openai"},
				{Text: llmtest.Chunks{"All ", "done."}},
			}})
			res, err := f.run(t, "do the thing")
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "All done." || res.Steps != 3 || res.Partial {
				t.Fatalf("result = %+v", res)
			}
			want := "text text usage tool_call tool_result usage tool_call tool_result tool_call tool_result text text usage final"
			if got := strings.Join(f.types(), " "); got != want {
				t.Fatalf("events:\n got %s\nwant %s", got, want)
			}
			// Each call's usage is reported; the turn's is their sum, and
			// the final event carries it.
			var sum llm.Usage
			for _, e := range f.events {
				if e.Type == EventUsage {
					sum = sum.Add(*e.Usage)
				}
			}
			final := f.events[len(f.events)-1]
			if sum.InputTokens == 0 || sum.OutputTokens == 0 || res.Usage != sum || *final.Usage != sum || res.Context == 0 {
				t.Fatalf("turn usage %+v (context %d), final %+v, sum of calls %+v", res.Usage, res.Context, final.Usage, sum)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("requests = %d", len(reqs))
			}
			last := reqs[2].Messages
			var results []string
			for _, m := range last {
				if m.Role == llm.RoleTool {
					results = append(results, m.Content)
				}
			}
			if strings.Join(results, "|") != "echo: one|echo: two|noted" {
				t.Fatalf("tool results sent = %q", results)
			}
			if len(f.tt.notes) != 1 || f.tt.notes[0] != "three" {
				t.Fatalf("notes = %v", f.tt.notes)
			}
			if len(reqs[0].Tools) != 3 {
				t.Fatalf("tools offered = %d", len(reqs[0].Tools))
			}
		})
	}
}

// consenter answers consent screens from a list and records them.
type consenter struct {
	answers []Decision
	seen    []tools.Consent
}

func (c *consenter) Consent(ctx context.Context, tc tools.Consent, allowServer bool) (Decision, error) {
	c.seen = append(c.seen, tc)
	if len(c.answers) == 0 {
		return Deny, errors.New("unexpected consent screen")
	}
	d := c.answers[0]
	c.answers = c.answers[1:]
	return d, nil
}

func TestApproval_Modes(t *testing.T) {
	noteTwice := llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("note", `{"text":"a"}`)}},
		{ToolCalls: []llmtest.Call{call("note", `{"text":"b"}`)}},
		{Text: llmtest.Chunks{"ok"}},
	}}
	t.Run("ask: deny reaches the model as a denial", func(t *testing.T) {
		f := newFixture(t, "openai", noteTwice)
		p := &consenter{answers: []Decision{Deny, AllowOnce}}
		f.agent.Approver.Mode, f.agent.Approver.Person = profile.ApprovalAsk, p
		if _, err := f.run(t, "x"); err != nil {
			t.Fatal(err)
		}
		msgs := f.srv.Requests()[1].Messages
		denial := msgs[len(msgs)-1]
		if !strings.HasPrefix(denial.Content, "denied: ") || denial.IsError {
			t.Fatalf("denial = %+v", denial)
		}
		if len(p.seen) != 2 || !strings.Contains(p.seen[0].Title, `note {"text":"a"}`) {
			t.Fatalf("consent screens = %+v", p.seen)
		}
		if strings.Join(f.tt.notes, ",") != "b" {
			t.Fatalf("notes = %v", f.tt.notes)
		}
		rows, _ := f.store.AuditEntries(context.Background(), vault.AuditQuery{Subject: "note"})
		if len(rows) != 2 || rows[0].Outcome != "denied" || rows[1].Outcome != "ok" {
			t.Fatalf("audit = %+v", rows)
		}
	})
	t.Run("ask: always for this tool is stored", func(t *testing.T) {
		f := newFixture(t, "openai", noteTwice)
		p := &consenter{answers: []Decision{AllowToolAlways}}
		f.agent.Approver.Mode, f.agent.Approver.Person = profile.ApprovalAsk, p
		if _, err := f.run(t, "x"); err != nil {
			t.Fatal(err)
		}
		if len(p.seen) != 1 || len(f.tt.notes) != 2 {
			t.Fatalf("screens %d, notes %v", len(p.seen), f.tt.notes)
		}
		if ok, _ := f.store.HasGrant(context.Background(), vault.DefaultProfile, vault.GrantTool, "note"); !ok {
			t.Fatal("grant not stored")
		}
	})
	t.Run("ask without a person denies", func(t *testing.T) {
		f := newFixture(t, "openai", noteTwice)
		f.agent.Approver.Mode = profile.ApprovalAsk
		f.run(t, "x")
		if len(f.tt.notes) != 0 {
			t.Fatalf("ran without approval: %v", f.tt.notes)
		}
		msgs := f.srv.Requests()[1].Messages
		if !strings.Contains(msgs[len(msgs)-1].Content, "--auto") {
			t.Fatalf("denial should say how to allow: %q", msgs[len(msgs)-1].Content)
		}
	})
	t.Run("auto prints a notice", func(t *testing.T) {
		f := newFixture(t, "openai", noteTwice)
		var notices []string
		f.agent.Approver.Mode = profile.ApprovalAuto
		f.agent.Approver.Notices = func(s string) { notices = append(notices, s) }
		f.run(t, "x")
		if len(notices) != 2 || !strings.HasPrefix(notices[0], "auto-approved: note") {
			t.Fatalf("notices = %q", notices)
		}
	})
	t.Run("yolo is silent", func(t *testing.T) {
		f := newFixture(t, "openai", noteTwice)
		var notices []string
		f.agent.Approver.Notices = func(s string) { notices = append(notices, s) }
		f.run(t, "x")
		if len(notices) != 0 || len(f.tt.notes) != 2 {
			t.Fatalf("notices %q notes %v", notices, f.tt.notes)
		}
	})
}

func TestRunTurn_BadModelOutput(t *testing.T) {
	lastTool := func(f *fixture, req int) llm.Message {
		msgs := f.srv.Requests()[req].Messages
		return msgs[len(msgs)-1]
	}
	cases := []struct {
		name  string
		call  llmtest.Call
		check func(m llm.Message) bool
	}{
		{"malformed JSON", call("echo", `{"text": "unterminated`), func(m llm.Message) bool {
			return strings.Contains(m.Content, "not valid JSON")
		}},
		{"unknown tool", call("frobnicate", `{}`), func(m llm.Message) bool {
			return strings.Contains(m.Content, "tool_search")
		}},
		{"schema failure", call("echo", `{"text": 5}`), func(m llm.Message) bool {
			return strings.Contains(m.Content, `argument "text": expected string`)
		}},
		{"tool error", call("fail", `{}`), func(m llm.Message) bool {
			return strings.Contains(m.Content, "on purpose")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, "openai", llmtest.Script{Lenient: true, Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.Call{c.call}},
				{Text: llmtest.Chunks{"recovered"}},
			}})
			res, err := f.run(t, "x")
			if err != nil || res.Text != "recovered" {
				t.Fatalf("res %+v err %v", res, err)
			}
			if m := lastTool(f, 1); !c.check(m) {
				t.Fatalf("tool message = %+v", m)
			}
		})
	}
}

func TestRunTurn_RepeatedCallStops(t *testing.T) {
	same := llmtest.Turn{ToolCalls: []llmtest.Call{call("echo", `{"text":"again"}`)}}
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{same, same, same, same, same, same}})
	res, err := f.run(t, "x")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || !strings.Contains(res.Reason, "repeated") || res.Steps != repeatLimit {
		t.Fatalf("res = %+v", res)
	}
}

func TestRunTurn_StepCap(t *testing.T) {
	turns := []llmtest.Turn{}
	for i := range 5 {
		turns = append(turns, llmtest.Turn{ToolCalls: []llmtest.Call{call("echo", `{"text":"`+string(rune('a'+i))+`"}`)}})
	}
	f := newFixture(t, "openai", llmtest.Script{Turns: append(turns, llmtest.Turn{Text: llmtest.Chunks{"next turn"}})})
	f.agent.MaxSteps = 3
	res, err := f.run(t, "x")
	if err != nil || !res.Partial || !strings.Contains(res.Reason, "step cap") || res.Steps != 3 {
		t.Fatalf("res %+v err %v", res, err)
	}
	// The next turn's request is accepted: the fake rejects histories with
	// unanswered tool calls.
	f.agent.MaxSteps = 10
	res, err = f.run(t, "go on")
	if err != nil || res.Text != "next turn" {
		t.Fatalf("next turn: %+v %v", res, err)
	}
}

func TestRunTurn_EmptyAnswer(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{{}}})
	res, err := f.run(t, "x")
	if err != nil || res.Text != "" || res.Partial {
		t.Fatalf("res %+v err %v", res, err)
	}
	if !strings.Contains(strings.Join(f.types(), " "), "notice") {
		t.Fatalf("no notice for the empty answer: %v", f.types())
	}
}

func TestRunTurn_StreamCut(t *testing.T) {
	t.Run("first step rolls back", func(t *testing.T) {
		f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
			{Text: llmtest.Chunks{"partial"}, Cut: true},
			{Text: llmtest.Chunks{"second try"}},
		}})
		f.agent.Client = clientNoRetry(t, f.srv, "openai")
		_, err := f.run(t, "x")
		if err == nil {
			t.Fatal("a cut stream succeeded")
		}
		if n := len(f.agent.Messages()); n != 0 {
			t.Fatalf("history after a failed first step has %d messages", n)
		}
		res, err := f.run(t, "x again")
		if err != nil || res.Text != "second try" {
			t.Fatalf("retry: %+v %v", res, err)
		}
	})
	t.Run("later step leaves a valid history", func(t *testing.T) {
		f := newFixture(t, "anthropic", llmtest.Script{Turns: []llmtest.Turn{
			{ToolCalls: []llmtest.Call{call("echo", `{"text":"a"}`)}},
			{Text: llmtest.Chunks{"half"}, Cut: true},
			{Text: llmtest.Chunks{"fine"}},
		}})
		f.agent.Client = clientNoRetry(t, f.srv, "anthropic")
		res, err := f.run(t, "x")
		if err == nil || !res.Partial {
			t.Fatalf("res %+v err %v", res, err)
		}
		res, err = f.run(t, "continue")
		if err != nil || res.Text != "fine" {
			t.Fatalf("next turn: %+v %v", res, err)
		}
	})
}

func clientNoRetry(t *testing.T, s *llmtest.Server, provider string) llm.Client {
	cfg := s.Config(provider)
	cfg.MaxRetries = -1
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRunTurn_CancelMidTurn(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("echo", `{"text":"a"}`)}},
		{Hang: true},
		{Text: llmtest.Chunks{"after"}},
	}})
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	seen := 0
	// Cancel as the second request (the one that hangs) reaches the model.
	f.srv.OnRequest = func(llmtest.Request) {
		mu.Lock()
		defer mu.Unlock()
		if seen++; seen == 2 {
			cancel()
		}
	}
	res, err := f.agent.RunTurn(ctx, "x", TurnOptions{})
	if !errors.Is(err, context.Canceled) || !res.Partial || res.Reason != "cancelled" {
		t.Fatalf("res %+v err %v", res, err)
	}
	res, err = f.run(t, "next")
	if err != nil || res.Text != "after" {
		t.Fatalf("next turn: %+v %v", res, err)
	}
}

func TestRunTurn_ElidesOldResults(t *testing.T) {
	big := strings.Repeat("x", 4000)
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("echo", `{"text":"`+big+`"}`)}},
		{ToolCalls: []llmtest.Call{call("echo", `{"text":"small"}`)}},
		{Text: llmtest.Chunks{"done"}},
	}})
	f.agent.ContextBudget = 1500
	if _, err := f.run(t, "x"); err != nil {
		t.Fatal(err)
	}
	msgs := f.srv.Requests()[2].Messages
	var elided string
	for _, m := range msgs {
		if m.Role == llm.RoleTool && strings.HasPrefix(m.Content, "[elided: ") {
			elided = m.Content
		}
	}
	if elided == "" {
		t.Fatal("no result elided")
	}
	id := strings.Fields(strings.SplitAfter(elided, "record ")[1])[0]
	id = strings.TrimSuffix(id, ";")
	r, err := f.store.Record(context.Background(), id)
	if err != nil || !strings.Contains(r.Body, big) {
		t.Fatalf("record %q: %v", id, err)
	}
}

func TestHistory_PersistsAndReloads(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("echo", `{"text":"a"}`)}},
		{Text: llmtest.Chunks{"first"}},
		{Text: llmtest.Chunks{"second"}},
	}})
	ctx := context.Background()
	sess, _ := f.store.NewSession(ctx, vault.DefaultProfile, "/w")
	f.agent.History = VaultHistory{Store: f.store, Profile: vault.DefaultProfile, Session: sess}
	f.run(t, "one")
	msgs, err := LoadHistory(ctx, f.store, vault.DefaultProfile, sess)
	if err != nil || len(msgs) != 4 {
		t.Fatalf("loaded %d messages: %v", len(msgs), err)
	}
	a := f.agent
	resumed := &Agent{Client: a.Client, Tools: a.Tools, Selector: a.Selector, Approver: a.Approver, Env: a.Env, System: a.System}
	resumed.SetMessages(msgs)
	res, err := resumed.RunTurn(ctx, "two", TurnOptions{})
	if err != nil || res.Text != "second" {
		t.Fatalf("resumed: %+v %v", res, err)
	}
	if got := len(f.srv.Requests()[2].Messages); got != 5 {
		t.Fatalf("resumed request carried %d messages, want 5", got)
	}
}

func TestRepairHistory(t *testing.T) {
	in := []llm.Message{
		{Role: llm.RoleUser, Content: "x"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "a"}, {ID: "2", Name: "b"}}},
		{Role: llm.RoleTool, ToolCallID: "2", Content: "two"},
		{Role: llm.RoleTool, ToolCallID: "9", Content: "orphan"},
		{Role: llm.RoleUser, Content: "y"},
	}
	out := repairHistory(in)
	if len(out) != 5 || out[2].ToolCallID != "1" || !out[2].IsError || out[3].Content != "two" || out[4].Content != "y" {
		t.Fatalf("repaired = %+v", out)
	}
}
