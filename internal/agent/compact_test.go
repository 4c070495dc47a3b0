package agent

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/vault"
)

// A conversation that passes the window compacts and goes on: the model
// summarises the earlier turn, the next request carries the summary in its
// place, the vault keeps every message (and the replaced ones as a
// record), and the conversation resumed from the vault is the compacted one.
func TestCompact_PastTheWindowGoesOn(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			long := strings.Repeat("a long answer about the build ", 150) // about 1,100 tokens
			f := newFixture(t, provider, llmtest.Script{Turns: []llmtest.Turn{
				{Text: llmtest.Chunks{long}},
				{Text: llmtest.Chunks{"The person asked about the build; it was explained at length."}},
				{Text: llmtest.Chunks{"Still here."}},
			}})
			ctx := context.Background()
			session, err := f.store.NewSession(ctx, vault.DefaultProfile, "/w")
			if err != nil {
				t.Fatal(err)
			}
			f.agent.History = VaultHistory{Store: f.store, Profile: vault.DefaultProfile, Session: session}
			f.agent.Window = 1000
			if _, err := f.run(t, "explain the build"); err != nil {
				t.Fatal(err)
			}
			res, err := f.run(t, "and now?")
			if err != nil || res.Text != "Still here." {
				t.Fatalf("turn after the window: %+v, %v", res, err)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 3 || reqs[1].System != summarySystem || !strings.Contains(reqs[1].LastUser(), long[:100]) {
				t.Fatalf("want the second request to ask for a summary of the first turn; requests: %d", len(reqs))
			}
			// (Anthropic's wire joins the summary and the next message, both
			// the person's, into one.)
			sent := reqs[2].Messages
			if len(sent) > 2 || !strings.Contains(sent[0].Content, "it was explained at length") ||
				!strings.HasSuffix(sent[len(sent)-1].Content, "and now?") || strings.Contains(sent[0].Content, long[:60]) {
				t.Fatalf("the request after compaction sent %+v", sent)
			}
			if !hasNotice(f.events, "compacted 2 earlier messages") {
				t.Fatalf("no notice of the compaction in %v", f.types())
			}

			raw, err := f.store.History(ctx, vault.DefaultProfile, session)
			if err != nil || len(raw) != 5 { // u1 a1 u2 summary a2
				t.Fatalf("vault history has %d messages (%v), want the 4 of the turns and the summary", len(raw), err)
			}
			if !strings.Contains(string(raw[1]), "a long answer about the build") {
				t.Fatalf("the vault lost the first answer: %s", raw[1])
			}
			id := regexp.MustCompile(`record (r\S+);`).FindStringSubmatch(sent[0].Content)
			if id == nil {
				t.Fatalf("the summary names no record: %q", sent[0].Content)
			}
			rec, err := f.store.Record(ctx, id[1])
			if err != nil || !strings.Contains(rec.Body, "explain the build") || !strings.Contains(rec.Body, "a long answer") {
				t.Fatalf("record %s: %v %.200q", id[1], err, rec.Body)
			}
			loaded, err := LoadHistory(ctx, f.store, vault.DefaultProfile, session)
			if err != nil || len(loaded) != 3 || loaded[0].Compacts != 2 || loaded[1].Content != "and now?" || loaded[2].Content != "Still here." {
				t.Fatalf("resumed conversation: %+v, %v", loaded, err)
			}
		})
	}
}

func hasNotice(events []Event, text string) bool {
	for _, e := range events {
		if e.Type == EventNotice && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// Within a turn the offered tools only grow: a tool picked at one step
// stays, in its place, at every later step, so each request's prompt
// starts with the previous one's tools.
func TestGrow_KeepsOrderAndAppends(t *testing.T) {
	spec := func(names ...string) []llm.ToolSpec {
		var out []llm.ToolSpec
		for _, n := range names {
			out = append(out, llm.ToolSpec{Name: n})
		}
		return out
	}
	names := func(s []llm.ToolSpec) string {
		var out []string
		for _, x := range s {
			out = append(out, x.Name)
		}
		return strings.Join(out, " ")
	}
	got := grow(nil, spec("a", "b", "c"))
	got = grow(got, spec("d", "b"))
	got = grow(got, spec("a"))
	if names(got) != "a b c d" {
		t.Fatalf("grown list %q, want \"a b c d\"", names(got))
	}
	var many []string
	for i := range maxOffered {
		many = append(many, string(rune('A'+i%26))+strings.Repeat("x", i/26+1))
	}
	got = grow(spec(many...), spec("new", "a"))
	if names(got) != "new a" {
		t.Fatalf("past the cap the list starts again from the step's selection: %q", names(got))
	}
}
