package agent

import (
	"context"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
	"tai/internal/tools"
	"tai/internal/vault"
)

// TestRunTurn_OneValidationAndOneAuditRowPerCall follows calls through the
// agent's door: a good call, one with bad arguments and a denied one each
// validate their arguments once and leave exactly one audit row, with the
// agent as its origin.
func TestRunTurn_OneValidationAndOneAuditRowPerCall(t *testing.T) {
	f := newFixture(t, "openai", llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call("echo", `{"text":"one"}`), call("echo", `{"text":5}`), call("note", `{"text":"n"}`)}},
		{Text: llmtest.Chunks{"done"}},
	}})
	f.agent.Approver.Mode = "ask" // nobody to ask: note is denied
	before := tools.Validations()
	if _, err := f.run(t, "go"); err != nil {
		t.Fatal(err)
	}
	if got := tools.Validations() - before; got != 3 {
		t.Errorf("validations = %d, want 3 (one per call)", got)
	}
	rows, err := f.store.AuditEntries(context.Background(), vault.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Kind+" "+r.Subject+" "+r.Outcome+" "+r.Origin)
	}
	want := "tool echo ok agent|tool echo invalid agent|tool note denied agent"
	if strings.Join(got, "|") != want {
		t.Errorf("audit rows:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
}
