package git

import (
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/gitenv/gitenvtest"
	"tai/internal/tools"
)

func TestBranch_CreateSwitchList(t *testing.T) {
	env := repo(t)
	wantText(t, call(t, Branch(), env, `{}`), "* main ")
	wantText(t, call(t, Branch(), env, `{"action": "create", "name": "feature"}`), "create branch feature: done")
	if cur := gitenvtest.Git(t, env.Dir, "branch", "--show-current"); cur != "main\n" {
		t.Fatalf("create switched to %q", cur)
	}
	wantText(t, call(t, Branch(), env, `{"action": "switch", "name": "feature"}`), "switch to branch feature: done")
	if cur := gitenvtest.Git(t, env.Dir, "branch", "--show-current"); cur != "feature\n" {
		t.Fatalf("on %q after switch", cur)
	}
	gitenvtest.Write(t, env.Dir, "b.txt", "x\n")
	gitenvtest.Git(t, env.Dir, "add", ".")
	gitenvtest.Git(t, env.Dir, "commit", "-qm", "second")
	res := call(t, Branch(), env, `{"action": "switch", "name": "fix/old", "create": true, "start": "HEAD~1"}`)
	wantText(t, res, "create branch fix/old at HEAD~1 and switch to it: done")
	if log := gitenvtest.Git(t, env.Dir, "log", "--format=%s"); log != "first\n" {
		t.Fatalf("fix/old starts at %q", log)
	}
	res = call(t, Branch(), env, `{"action": "list"}`)
	wantText(t, res, "  feature ", "* fix/old ", "  main ")
}

func TestBranch_BadInputs(t *testing.T) {
	env := repo(t)
	for args, want := range map[string]string{
		`{"action": "create", "name": "a..b"}`:                 `"a..b" is not a valid branch name`,
		`{"action": "create", "name": "main"}`:                 "a branch named 'main' already exists",
		`{"action": "switch", "name": "nosuch"}`:               "invalid reference: nosuch",
		`{"action": "create"}`:                                 "create needs a name",
		`{"action": "list", "name": "x"}`:                      "list takes no name",
		`{"action": "switch", "name": "main", "start": "x"}`:   "start is only for a branch being created",
		`{"action": "create", "name": "x", "all": true}`:       "all is only for list",
		`{"action": "delete", "name": "main"}`:                 `argument "action"`,
		`{"action": "create", "name": "x", "start": "nosuch"}`: "not a valid object name: 'nosuch'",
	} {
		wantError(t, call(t, Branch(), env, args), want)
	}
}

func TestBranch_SafetyAndConsent(t *testing.T) {
	tool := Branch()
	for args, want := range map[string]bool{
		`{}`:                                   true,
		`{"action": "list", "all": true}`:      true,
		`{"action": "create", "name": "x"}`:    false,
		`{"action": "switch", "name": "main"}`: false,
	} {
		if got := tool.IsSafe(tools.Call{Args: json.RawMessage(args)}); got != want {
			t.Errorf("IsSafe(%s) = %v, want %v", args, got, want)
		}
	}
	env := repo(t)
	gitenvtest.Write(t, env.Dir, "a.txt", "dirty\n")
	c := tool.ConsentFor(tools.Call{Args: json.RawMessage(`{"action": "switch", "name": "topic", "create": true}`), Env: env})
	if c.Title != "git_branch: create branch topic and switch to it" || !strings.Contains(c.Detail, "Now:\n  ## main\n   M a.txt") {
		t.Errorf("consent %+v", c)
	}
}
