package agent_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tai/internal/agent"
	"tai/internal/catalog"
	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

// replayModel is a model with no latency and next to no cost of its own:
// it answers a request without tool results with a list_dir call and
// one with tool results with a short text, both recorded once from the
// llmtest fake and replayed byte for byte. The request is read, not
// decoded, so the benchmark measures tai rather than the fake.
func replayModel(b *testing.B) string {
	call := recordAnswer(b, llmtest.Turn{ToolCalls: []llmtest.Call{{Name: "list_dir", Arguments: llmtest.Chunks{`{"path":`, `"."}`}}}})
	text := recordAnswer(b, llmtest.Turn{Text: llmtest.Chunks{"Three ", "files."}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		answer := call
		if bytes.Contains(body, []byte(`"role":"tool"`)) {
			answer = text
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(answer)
	}))
	b.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// recordAnswer is the fake's OpenAI stream for turn.
func recordAnswer(b *testing.B, turn llmtest.Turn) []byte {
	srv := llmtest.Start(b, llmtest.Script{Lenient: true, Turns: []llmtest.Turn{turn}})
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatal(resp.Status, err)
	}
	return data
}

// BenchmarkAgentStep measures tai's cost per agent step, everything but a
// model's latency: offering the whole native catalogue, encoding the
// request, loopback HTTP and SSE parsing, running list_dir on a directory
// of three files, redaction, appending to the vault's history and the
// audit trail. The model replays recorded answers (replayModel).
// A turn is two steps (the call, then the answer); each iteration starts
// a fresh conversation so the history sent stays the same size.
//
// The "complete" leg sends the same two requests with the model client
// alone; the difference is the agent loop's own share.
func BenchmarkAgentStep(b *testing.B) {
	ctx := context.Background()
	store, err := vault.Open(ctx, filepath.Join(b.TempDir(), "home"), vault.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	dir := b.TempDir()
	for _, name := range []string{"a.go", "b.go", "README.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package x\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	cfg := llm.Config{Provider: "openai", Model: "bench", BaseURL: replayModel(b), APIKey: "k"}
	client, err := llm.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	session, err := store.NewSession(ctx, vault.DefaultProfile, dir)
	if err != nil {
		b.Fatal(err)
	}
	reg := tools.NewRegistry(catalog.Native()...)
	a := &agent.Agent{
		Client: client, Tools: reg, Selector: agent.AllTools{Registry: reg},
		Approver: &agent.Approver{Mode: profile.ApprovalAsk, Store: store, Profile: vault.DefaultProfile},
		Env:      &tools.Env{Dir: dir, Store: store, Profile: vault.DefaultProfile, Session: session, State: &tools.State{}},
		System:   agent.SystemPrompt(dir, profile.ApprovalAsk, "", time.Now()),
		History:  agent.VaultHistory{Store: store, Profile: vault.DefaultProfile, Session: session},
	}
	const input = "what files are here?"

	b.Run("step", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a.SetMessages(nil)
			res, err := a.RunTurn(ctx, input, agent.TurnOptions{})
			if err != nil || res.Steps != 2 || res.Text != "Three files." {
				b.Fatal(res, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/step")
	})

	// The same two requests, as the agent sent them, with the client alone.
	a.SetMessages(nil)
	if _, err := a.RunTurn(ctx, input, agent.TurnOptions{}); err != nil {
		b.Fatal(err)
	}
	msgs := a.Messages()
	var specs []llm.ToolSpec
	for _, t := range reg.Native() {
		specs = append(specs, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Schema})
	}
	reqs := []llm.Request{
		{System: a.System, Messages: msgs[:1], Tools: specs},
		{System: a.System, Messages: msgs[:3], Tools: specs},
	}
	b.Run("complete", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range reqs {
				if _, err := a.Client.Complete(ctx, r); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/step")
	})
}
