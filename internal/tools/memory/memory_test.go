package memory

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

var idRE = regexp.MustCompile(`saved memory (m\w+)`)

func saveMemory(t *testing.T, env *tools.Env, args string) string {
	t.Helper()
	out := tooltest.MustRun(t, tooltest.Find(t, Tools(), SaveName), env, args)
	m := idRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("memory_save said %q", out)
	}
	return m[1]
}

func TestMemory_SaveSearchDelete(t *testing.T) {
	env := tooltest.Env(t)
	build := saveMemory(t, env, `{"text":"tai builds with make build; tests with make test","tags":["Build","tai","build"]}`)
	saveMemory(t, env, `{"text":"the person prefers short answers"}`)
	search := tooltest.Find(t, Tools(), SearchName)

	out := tooltest.MustRun(t, search, env, `{"query":"how to build"}`)
	if !strings.HasPrefix(out, "1 of 1 matching memories") || !strings.Contains(out, "["+build+"]") ||
		!strings.Contains(out, "tags: build, tai\n  tai builds with make build") {
		t.Errorf("search result:\n%s", out)
	}
	if out := tooltest.MustRun(t, search, env, `{"query":"kubernetes"}`); out != `no memory matches "kubernetes" (2 memories in this profile)` {
		t.Errorf("no match: %q", out)
	}

	del := tooltest.Find(t, Tools(), DeleteName)
	if out := tooltest.MustRun(t, del, env, `{"id":"`+build+`"}`); out != "deleted memory "+build {
		t.Errorf("delete: %q", out)
	}
	if out := tooltest.MustRun(t, search, env, `{"query":"build"}`); !strings.HasPrefix(out, "no memory matches") {
		t.Errorf("deleted memory still found:\n%s", out)
	}
}

func TestMemory_PerProfile(t *testing.T) {
	env := tooltest.Env(t)
	id := saveMemory(t, env, `{"text":"default profile fact"}`)
	if err := env.Store.CreateProfile(context.Background(), "work"); err != nil {
		t.Fatal(err)
	}
	work := *env
	work.Profile = "work"
	if out := tooltest.MustRun(t, tooltest.Find(t, Tools(), SearchName), &work, `{"query":"fact"}`); !strings.HasPrefix(out, "no memory matches") {
		t.Errorf("another profile's memory was found:\n%s", out)
	}
	res := tooltest.Run(t, tooltest.Find(t, Tools(), DeleteName), &work, `{"id":"`+id+`"}`)
	if !res.IsError || !strings.Contains(res.Text, "no memory") {
		t.Errorf("deleting another profile's memory: %+v", res)
	}
}

func TestMemory_SecretValuesAreNeverStored(t *testing.T) {
	env := tooltest.Env(t)
	ctx := context.Background()
	if err := env.Store.SetSecret(ctx, vault.DefaultProfile, "GH_TOKEN", "ghp_abcdef123456", nil); err != nil {
		t.Fatal(err)
	}
	saveMemory(t, env, `{"text":"the token is ghp_abcdef123456"}`)
	ms, err := env.Store.Memories(ctx, vault.DefaultProfile)
	if err != nil || len(ms) != 1 {
		t.Fatalf("%v %v", ms, err)
	}
	if ms[0].Text != "the token is [secret:GH_TOKEN]" {
		t.Errorf("stored text = %q", ms[0].Text)
	}
}

func TestMemory_BadInput(t *testing.T) {
	env := tooltest.Env(t)
	for _, tt := range []struct {
		tool, args, want string
	}{
		{SaveName, `{}`, `missing required argument "text"`},
		{SaveName, `{"text":""}`, "at least 1 characters"},
		{SaveName, `{"text":"   "}`, "the text is blank"},
		{SaveName, `{"text":"` + strings.Repeat("x", 4001) + `"}`, "at most 4000 characters"},
		{SaveName, `{"text":"x","tags":["two words"]}`, `tags[0]`},
		{SaveName, `{"text":"x","tags":"build"}`, "expected array"},
		{SaveName, `{"text":"x","title":"y"}`, `unknown argument "title"`},
		{SearchName, `{"query":"?!"}`, "no words to match"},
		{SearchName, `{"query":"x","limit":0}`, "at least 1"},
		{DeleteName, `{"id":"mnothere"}`, `no memory "mnothere" in this profile; find ids with memory_search`},
		{DeleteName, `{"id":3}`, "expected string"},
	} {
		res := tooltest.Run(t, tooltest.Find(t, Tools(), tt.tool), env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) || strings.Contains(res.Text, "\n") {
			t.Errorf("%s(%.40s) = %+v, want one-line error containing %q", tt.tool, tt.args, res, tt.want)
		}
	}
}

func TestMemory_NoVault(t *testing.T) {
	res := tooltest.Run(t, tooltest.Find(t, Tools(), SaveName), &tools.Env{}, `{"text":"x"}`)
	if !res.IsError || !strings.Contains(res.Text, "no vault") {
		t.Errorf("got %+v", res)
	}
}

func TestRank(t *testing.T) {
	ms := []vault.Memory{ // newest first
		{ID: "new", Text: "deploy with the script", Created: 3},
		{ID: "tagged", Text: "see the wiki", Tags: []string{"deploy"}, Created: 2},
		{ID: "both", Text: "deploy to prod on Fridays", Created: 1},
		{ID: "none", Text: "unrelated", Created: 0},
	}
	var got []string
	for _, m := range Rank(ms, Words("Deploy prod")) {
		got = append(got, m.ID)
	}
	// both: deploy+prod = 2; tagged: tag deploy = 2, older; new: 1.
	if diff := cmp.Diff([]string{"tagged", "both", "new"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWords(t *testing.T) {
	if diff := cmp.Diff([]string{"make", "test", "go1", "über"}, Words("Make test; make go1 ÜBER-test")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
