package resolve

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tai/internal/agent"
	"tai/internal/llm/llmtest"
	"tai/internal/mcp/config"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

// forkFixture is a parent agent on the fake model, with a tool the
// resolver's child must never be offered, asking a person nobody answers:
// the child's read tool runs anyway, being read-only.
type forkFixture struct {
	llm    *llmtest.Server
	store  *vault.Store
	runner *agent.Runner
	parent int // calls of the parent's own tool
}

func newForkFixture(t *testing.T, turns ...llmtest.Turn) *forkFixture {
	t.Helper()
	store, err := vault.Open(context.Background(), filepath.Join(t.TempDir(), "home"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f := &forkFixture{llm: llmtest.Start(t, llmtest.Script{Turns: turns}), store: store}
	shell := tools.Raw(tools.Tool{Name: "shell", Description: "run a command", Schema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, tools.Call) (tools.Result, error) { f.parent++; return tools.Text("ran"), nil })
	reg := tools.NewRegistry(shell)
	env := &tools.Env{Dir: t.TempDir(), Store: store, Profile: vault.DefaultProfile, State: &tools.State{}}
	parent := &agent.Agent{Client: f.llm.Client(t, "openai"), Tools: reg, Selector: agent.AllTools{Registry: reg},
		Approver: &agent.Approver{Mode: profile.ApprovalAsk, Store: store, Profile: vault.DefaultProfile}, Env: env}
	f.runner = agent.NewRunner(parent)
	return f
}

func (f *forkFixture) resolver(gh *GitHub) *Resolver {
	return &Resolver{GitHub: gh, Timeout: time.Second,
		Subagents: func(context.Context) (tools.Subagents, error) { return f.runner, nil }}
}

func read(path string) llmtest.Turn {
	return llmtest.Turn{ToolCalls: []llmtest.Call{{Name: ReadToolName, Arguments: llmtest.Chunks{`{"path":"` + path + `"}`}}}}
}

func answer(s string) llmtest.Turn { return llmtest.Turn{Text: llmtest.Chunks{s}} }

func TestAgentPass_GoodAnswer(t *testing.T) {
	f := newForkFixture(t, read(""), read("README.md"),
		answer("```json\n{\"name\": \"toolbox\", \"url\": \"https://toolbox.acme.example/mcp\"}\n```"))
	api, gh := fakeGitHub(t)
	res, err := f.resolver(gh).Find(context.Background(), ref(t, "https://github.com/acme/nothing"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass != PassAgent || len(res.Entries) != 1 || res.Transcript == "" {
		t.Fatalf("resolution %+v", res)
	}
	e := res.Entries[0]
	if e.Name != "toolbox" || e.URL != "https://toolbox.acme.example/mcp" || e.Source != "github:acme/nothing" {
		t.Errorf("entry %+v", e)
	}
	if n := e.Notes[len(e.Notes)-1]; !strings.Contains(n, "untrusted") {
		t.Errorf("no note that a subagent read untrusted files: %q", e.Notes)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests", len(reqs))
	}
	for _, r := range reqs {
		if len(r.Tools) != 1 || r.Tools[0].Name != ReadToolName {
			t.Fatalf("the child was offered %+v", r.Tools)
		}
	}
	brief := reqs[0].LastUser()
	for _, w := range []string{"acme/nothing", "README.md: no npx or uvx run block", "untrusted", "exactly one fenced json block"} {
		if !strings.Contains(brief, w) {
			t.Errorf("the brief lacks %q:\n%s", w, brief)
		}
	}
	last := reqs[2].Messages
	if got := last[len(last)-1].Content; !strings.Contains(got, "go build -o toolbox ./cmd/server") {
		t.Errorf("the child did not get the README: %q", got)
	}
	for _, r := range api.Requests() {
		if r.Repo != "acme/nothing" {
			t.Errorf("the resolution read %s", r.Repo)
		}
	}
	rec, err := f.store.Record(context.Background(), res.Transcript)
	if err != nil || !strings.Contains(rec.Body, "call repo_read") {
		t.Errorf("transcript %q: %v", rec.Body, err)
	}
}

// TestAgentPass_Failures: every answer that is not exactly one fenced
// entry fails loudly, naming both passes and what each saw.
func TestAgentPass_Failures(t *testing.T) {
	entry := "```json\n{\"command\": \"npx\", \"args\": [\"-y\", \"toolbox-mcp\"]}\n```"
	tests := []struct {
		name  string
		turns []llmtest.Turn
		want  string
	}{
		{"chatty", []llmtest.Turn{read("README.md"), answer("Sure! The server starts like this:\n" + entry + "\nHope that helps.")},
			"Agent pass: its answer was refused: it has text outside its fenced block; it began Sure! The server starts like this:"},
		{"prose only", []llmtest.Turn{answer("It is a Go program; build it with go build.")},
			"Agent pass: its answer was refused: it has no fenced JSON block; it began It is a Go program"},
		{"two fenced blocks", []llmtest.Turn{answer(entry + "\n\n" + entry)},
			"Agent pass: its answer was refused: it has 2 fenced blocks, not one"},
		{"error answer", []llmtest.Turn{read("README.md"), answer("```json\n{\"error\": \"no published package\", \"evidence\": \"README.md only shows go build\"}\n```")},
			"Agent pass: the subagent found none: no published package (its evidence: README.md only shows go build)"},
		{"timeout", []llmtest.Turn{read(""), {Hang: true}},
			"Agent pass: the subagent stopped without an answer: the subagent's deadline of 1s passed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newForkFixture(t, tt.turns...)
			_, gh := fakeGitHub(t)
			res, err := f.resolver(gh).Find(context.Background(), ref(t, "https://github.com/acme/nothing"))
			var fail *Failure
			if !errors.As(err, &fail) || len(res.Entries) != 0 {
				t.Fatalf("got %+v, %v; want a *Failure", res, err)
			}
			namesBothPasses(t, err.Error())
			for _, w := range []string{"Deterministic pass: (root): no mcp.json", "README.md: no npx or uvx run block", tt.want,
				"(transcript: tai record show " + fail.Transcript + ")"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err lacks %q:\n%s", w, err)
				}
			}
			if f.parent != 0 {
				t.Error("the child ran the parent's tool")
			}
		})
	}
}

// TestAgentPass_ReadStaysInTheRepository: the read tool refuses paths out
// of the repository and reaches nothing but that repository's contents.
func TestAgentPass_ReadStaysInTheRepository(t *testing.T) {
	api, gh := fakeGitHub(t)
	tool := ReadTool(gh.Repo("acme", "nothing", ""), 4)
	run := func(path string) tools.Result {
		args, _ := json.Marshal(map[string]string{"path": path})
		res, err := tools.Invoke(context.Background(), tool, tools.Call{Args: args}, tools.Via{})
		if err != nil {
			t.Fatal(err)
		}
		return res.Result
	}
	if r := run("../servers/README.md"); !r.IsError || !strings.Contains(r.Text, "not a plain path") {
		t.Errorf("../ read: %+v", r)
	}
	if r := run("/cmd/server/main.go"); r.IsError || !strings.Contains(r.Text, "package main") {
		t.Errorf("a rooted path: %+v", r)
	}
	if r := run("cmd"); r.IsError || !strings.Contains(r.Text, "server/") {
		t.Errorf("a folder: %+v", r)
	}
	if r := run("missing.txt"); !r.IsError || r.Text != "missing.txt: no such file or folder" {
		t.Errorf("a missing file: %+v", r)
	}
	if r := run("README.md"); !r.IsError || !strings.Contains(r.Text, "limit of 4 reads") {
		t.Errorf("past the limit: %+v", r)
	}
	for _, r := range api.Requests() {
		if r.Repo != "acme/nothing" {
			t.Errorf("read %s", r.Repo)
		}
	}
	if !tool.IsSafe(tools.Call{}) {
		t.Error("the read tool is not safe, so ask mode would stop the subagent")
	}
}

func TestAgentPass_NoRunner(t *testing.T) {
	_, gh := fakeGitHub(t)
	r := &Resolver{GitHub: gh, Subagents: func(context.Context) (tools.Subagents, error) {
		return nil, errors.New("no model configured: set TAI_MODEL")
	}}
	_, err := r.Find(context.Background(), &config.GitHubRef{Owner: "acme", Repo: "nothing"})
	if err == nil || !strings.Contains(err.Error(), "Agent pass: not available: no model configured: set TAI_MODEL.") {
		t.Fatalf("err = %v", err)
	}
	namesBothPasses(t, err.Error())
}
