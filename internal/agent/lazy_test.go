package agent

import (
	"slices"
	"testing"

	"tai/internal/llm/llmtest"
	"tai/internal/tools/meta"
	"tai/internal/tools/selector"
)

// A tool loaded by tool_search is offered for the rest of its turn and
// gone when the next turn starts; the selector offers the core set and
// what the person's words match, never the whole registry (the budget is
// set: a registry this small would otherwise be offered whole), and the tool
// traffic's words add nothing (the list stays the same, for the prompt
// cache, until tool_search loads more).
func TestLazyTools_LoadLastsTheTurn(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("tool_search", `{"load":["note"]}`)}},
		{ToolCalls: []llmtest.Call{call("note", `{"text":"x"}`)}},
		{Text: llmtest.Chunks{"noted"}},
		{Text: llmtest.Chunks{"hello again"}},
	}})
	reg := f.tt.registry()
	for _, t := range meta.Tools() {
		reg.Register(t)
	}
	f.agent.Tools = reg
	f.agent.Env.Tools = reg
	f.agent.Selector = LazyTools{Registry: reg, Selector: selector.Selector{Core: []string{"tool_search"}, Budget: selector.DefaultBudget}}
	if _, err := f.run(t, "zzz qqq"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.run(t, "zzz qqq"); err != nil {
		t.Fatal(err)
	}
	var offered [][]string
	for _, r := range f.srv.Requests() {
		var names []string
		for _, s := range r.Tools {
			names = append(names, s.Name)
		}
		offered = append(offered, names)
	}
	want := [][]string{
		{"tool_search"},
		{"tool_search", "note"},
		{"tool_search", "note"}, // the traffic's "text" would match echo's argument
		{"tool_search"},
	}
	if len(offered) != len(want) {
		t.Fatalf("offered %v", offered)
	}
	for i := range want {
		if !slices.Equal(offered[i], want[i]) {
			t.Errorf("step %d offered %v, want %v", i+1, offered[i], want[i])
		}
	}
	if !slices.Equal(f.tt.notes, []string{"x"}) {
		t.Errorf("notes %v", f.tt.notes)
	}
}

var _ Selector = LazyTools{}
