package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

// TestCompact_ConversationGoesOnAndTheVaultKeepsAll runs three one-shot
// turns of one conversation (--continue) with a small context window: the
// third starts past it, so tai compacts the earlier turns into the model's
// summary and goes on; `tai sessions show` still prints every message,
// the summary after them, and the conversation's usage.
func TestCompact_ConversationGoesOnAndTheVaultKeepsAll(t *testing.T) {
	// Each answer is about 5k tokens, the system prompt and tools about
	// 2k: the second turn starts at about 7k, under 80% of the window
	// (10.4k), the third at about 12k, past it.
	long := strings.Repeat("the first answer, at some length. ", 600)
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: text(long)},
		{Text: text("short second answer" + strings.Repeat(" and more", 2200))},
		{Text: text("SUMMARY: they asked twice; the first answer was long.")},
		{Text: text("third answer after the summary")},
	}})
	home, dir := t.TempDir(), t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := taiCmd(home, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Env, "TAI_BASE_URL="+srv.URL+"/v1", "TAI_MODEL=openai:fake-model", "OPENAI_API_KEY="+llmtest.Key,
			"TAI_CONTEXT_WINDOW=13000", "TAI_API_KEY=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tai %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("first question")
	run("--continue", "second question")
	out := run("--continue", "third question")
	if !strings.Contains(out, "third answer after the summary") || !strings.Contains(out, "tai: compacted 4 earlier messages into a summary") {
		t.Fatalf("third turn printed:\n%s", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || !strings.Contains(reqs[2].LastUser(), "first question") {
		t.Fatalf("want the third request to ask for a summary; got %d requests", len(reqs))
	}
	last := reqs[3]
	sent, _ := json.Marshal(last.Messages)
	if strings.Contains(string(sent), "the first answer, at some length") || !strings.Contains(string(sent), "SUMMARY: they asked twice") {
		t.Fatalf("the request after compaction sent %s", sent)
	}

	var list []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(run("sessions", "--json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %+v", err, list)
	}
	show := run("sessions", "show", list[0].ID)
	for _, want := range []string{"1. user\nfirst question", "the first answer, at some length", "second question", "short second answer",
		"third question", "summary of the 4 messages before it (compaction)", "SUMMARY: they asked twice", "third answer after the summary",
		"usage: 4 model call(s)"} {
		if !strings.Contains(show, want) {
			t.Errorf("tai sessions show lacks %q:\n%s", want, show)
		}
	}
}
