package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"tai/internal/llm/llmtest"
	"tai/internal/tools"
)

func TestFork_Answers(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("echo", `{"text":"child"}`)}},
		{Text: llmtest.Chunks{"child answer"}},
	}})
	r := NewRunner(f.agent)
	res, err := r.Fork(context.Background(), tools.ForkRequest{Brief: "find it"})
	if err != nil || res.Answer != "child answer" || res.Partial {
		t.Fatalf("res %+v err %v", res, err)
	}
	rec, err := f.store.Record(context.Background(), res.RecordID)
	if err != nil || !strings.Contains(rec.Body, "brief: find it") || !strings.Contains(rec.Body, "echo: child") {
		t.Fatalf("transcript %q: %v", rec.Body, err)
	}
	if len(f.agent.Messages()) != 0 {
		t.Fatal("the child's conversation leaked into the parent's")
	}
}

func TestFork_StepCapIsPartial(t *testing.T) {
	var turns []llmtest.Turn
	for _, s := range []string{"a", "b", "c"} {
		turns = append(turns, llmtest.Turn{Text: llmtest.Chunks{"working on " + s}, ToolCalls: []llmtest.Call{call("echo", `{"text":"`+s+`"}`)}})
	}
	f := newFixture(t, "openai", llmtest.Script{Turns: turns})
	res, err := NewRunner(f.agent).Fork(context.Background(), tools.ForkRequest{Brief: "loop", MaxSteps: 2})
	if err != nil || !res.Partial || !strings.Contains(res.Reason, "step cap") || res.Answer != "working on b" {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestFork_DeadlineIsPartial(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{Text: llmtest.Chunks{"started"}, ToolCalls: []llmtest.Call{call("echo", `{"text":"a"}`)}},
		{Hang: true},
	}})
	r := NewRunner(f.agent)
	r.Timeout = 200 * time.Millisecond
	res, err := r.Fork(context.Background(), tools.ForkRequest{Brief: "slow"})
	if err != nil || !res.Partial || !strings.Contains(res.Reason, "deadline") || res.Answer != "started" {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestFork_Background(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"bg done"}}}})
	r := NewRunner(f.agent)
	id, err := r.Start(context.Background(), tools.ForkRequest{Brief: "bg"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait(context.Background(), id)
	if err != nil || res.Answer != "bg done" {
		t.Fatalf("wait: %+v %v", res, err)
	}
	if l := r.List(); len(l) != 1 || l[0].State != "done" {
		t.Fatalf("list = %+v", l)
	}
	if _, err := r.Wait(context.Background(), "a99"); err == nil {
		t.Fatal("unknown id waited")
	}
}

func TestFork_RestrictedTools(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("note", `{"text":"x"}`)}},
		{Text: llmtest.Chunks{"gave up"}},
	}})
	only := tools.NewRegistry(f.agent.Tools.Native()[0]) // echo only
	res, err := NewRunner(f.agent).Fork(context.Background(), tools.ForkRequest{Brief: "b", Tools: only})
	if err != nil || res.Answer != "gave up" {
		t.Fatalf("res %+v err %v", res, err)
	}
	if len(f.tt.notes) != 0 {
		t.Fatal("a restricted child ran a tool it was not given")
	}
	if n := len(f.srv.Requests()[0].Tools); n != 1 {
		t.Fatalf("child offered %d tools", n)
	}
}
