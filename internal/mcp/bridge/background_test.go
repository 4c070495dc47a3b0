package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/mcptest"
	"tai/internal/tools"
	"tai/internal/vault"
)

// A call whose tool runs as a task, still running after TaskBackground,
// returns at once telling the model it went to the background; the task
// goes on (here it asks the person on the way), and OnTaskDone gets its
// result, redacted, with an audit row of its end. Without OnTaskDone the
// call waits for the task.
func TestTask_GoesToTheBackground(t *testing.T) {
	f := newFixture(t)
	e := fakeEntry(t, "slow")
	e.Env[mcptest.EnvScript] = "tasks"
	f.add(t, e, true)
	f.store.AddKnown("TOKEN", "sekrit-42")
	f.b.Elicit = func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"action":"accept","content":{"pick":"sekrit-42"}}`), nil
	}
	done := make(chan TaskDone, 1)
	f.b.OnTaskDone = func(d TaskDone) { done <- d }
	f.b.TaskBackground = time.Millisecond
	ctx := context.Background()
	res, err := f.invoke(ctx, "slow", "research", `{}`)
	if err != nil || res.IsError || !strings.HasPrefix(res.Text, "[MCP server slow runs research as task task-1, still working after 0s: it goes on in the background") {
		t.Fatalf("the call: %+v, %v", res, err)
	}
	var d TaskDone
	select {
	case d = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the task's end was never told")
	}
	if d.Server != "slow" || d.Tool != "research" || d.TaskID != "task-1" || d.IsError ||
		!strings.HasPrefix(d.Text, "research: ") || strings.Contains(d.Text, "sekrit") {
		t.Fatalf("the end: %+v", d)
	}
	rows, err := f.store.AuditEntries(ctx, vault.AuditQuery{Kind: vault.KindMCPCall})
	if err != nil {
		t.Fatal(err)
	}
	var ends int
	for _, r := range rows {
		if r.Subject == "slow/research (task task-1, in the background)" && r.Outcome == vault.OutcomeOK {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("audit rows %+v; want one for the task's end", rows)
	}

	// Without OnTaskDone the call waits for the task's result, its
	// statuses reported as progress (the first at once).
	g := newFixture(t)
	g.add(t, e, true)
	g.b.Elicit = f.b.Elicit
	var r reports
	res, err = g.invoke(tools.WithProgress(ctx, r.add), "slow", "research", `{}`)
	if err != nil || !strings.HasPrefix(res.Text, "research: ") {
		t.Fatalf("a call that may not go to the background: %+v, %v", res, err)
	}
	if got := r.all(); len(got) == 0 || got[0] != (tools.Progress{Server: "slow", Message: "task task-1: working, starting"}) {
		t.Errorf("progress %+v; want the task's first status first", got)
	}
}

// A stateless-era server of the 2026-07-28 Tasks extension makes a call
// a task on its own: tai declares the extension, polls the task, answers
// its question and delivers the answer with tasks/update, and returns the
// result inlined in the completed task; in the REPL it goes to the
// background the same way.
func TestTaskV2_PolledAnsweredAndBackgrounded(t *testing.T) {
	f := newFixture(t)
	e := fakeEntry(t, "ext", "research")
	e.Env[mcptest.EnvScript] = "tasks2"
	e.Env[mcptest.EnvStateless] = "0"
	f.add(t, e, true)
	f.b.Elicit = func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"action":"accept","content":{"pick":"b"}}`), nil
	}
	ctx := context.Background()
	var r reports
	res, err := f.invoke(tools.WithProgress(ctx, r.add), "ext", "research", `{}`)
	if err != nil || res.IsError || res.Text != `research: {"action":"accept","content":{"pick":"b"}}` {
		t.Fatalf("the call: %+v, %v", res, err)
	}
	var statuses []string
	for _, p := range r.all() {
		statuses = append(statuses, p.Message)
	}
	if len(statuses) == 0 || statuses[0] != "task t2: working" {
		t.Errorf("statuses %q", statuses)
	}

	g := newFixture(t)
	g.add(t, e, true)
	g.b.Elicit = f.b.Elicit
	done := make(chan TaskDone, 1)
	g.b.OnTaskDone = func(d TaskDone) { done <- d }
	g.b.TaskBackground = time.Nanosecond
	res, err = g.invoke(ctx, "ext", "research", `{}`)
	if err != nil || !strings.Contains(res.Text, "as task t2, still working") {
		t.Fatalf("the call that goes to the background: %+v, %v", res, err)
	}
	select {
	case d := <-done:
		if d.IsError || !strings.HasPrefix(d.Text, "research: ") {
			t.Fatalf("the end: %+v", d)
		}
	case <-time.After(time.Minute):
		t.Fatal("the task's end was never told")
	}
}
