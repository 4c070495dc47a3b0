package meta

import (
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/selector"
	"tai/internal/tools/tooltest"
)

func searchEnv(t *testing.T) *tools.Env {
	reg := tools.NewRegistry(append(Tools(),
		&tools.Tool{Name: "git_log", Description: "Show the commit history", Group: "git"},
		&tools.Tool{Name: "shell", Description: "Run a shell command", Group: "shell"},
	)...)
	reg.Fallback = tooltest.Source{
		{Name: "mcp_gh_create_issue", Description: "Create an issue\x1b[31m in a GitHub repository\nmore text", Server: "gh", Remote: "create_issue"},
		{Name: "mcp_gh_close_issue", Description: "Close an issue", Server: "gh", Remote: "close_issue", Unoffered: true},
	}
	env := &tools.Env{State: &tools.State{}, Tools: reg}
	return env
}

func TestToolSearch_ListsMatchesWithOneLineDescriptions(t *testing.T) {
	env := searchEnv(t)
	out := tooltest.MustRun(t, Tools()[0], env, `{"query":"create a github issue"}`)
	if !strings.Contains(out, "- mcp_gh_create_issue: Create an issue in a GitHub repository\n") {
		t.Errorf("no clean one-line entry for the bridged tool:\n%s", out)
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "more text") {
		t.Errorf("description not reduced to one safe line:\n%s", out)
	}
	if !strings.Contains(out, `mcp_gh_close_issue: Close an issue (listed, not offered`) ||
		!strings.Contains(out, `mcp_call {"server":"gh","tool":"close_issue","args":{…}}`) {
		t.Errorf("unoffered tool lacks the mcp_call hint:\n%s", out)
	}
	if strings.Contains(out, "shell") {
		t.Errorf("unrelated tool listed:\n%s", out)
	}
}

func TestToolSearch_LoadsForTheTurn(t *testing.T) {
	env := searchEnv(t)
	out := tooltest.MustRun(t, Tools()[0], env, `{"load":["git_log","nope","mcp_gh_close_issue"]}`)
	for _, want := range []string{"loaded git_log", "not loaded: nope: no such tool", "not loaded: mcp_gh_close_issue: (listed, not offered"} {
		if !strings.Contains(out, want) {
			t.Errorf("answer lacks %q:\n%s", want, out)
		}
	}
	if got := selector.Loaded(env); len(got) != 1 || got[0] != "git_log" {
		t.Errorf("loaded %v, want [git_log]", got)
	}
	res := tooltest.Run(t, Tools()[0], env, `{"load":["nope"]}`)
	if !res.IsError {
		t.Errorf("loading nothing is not an error: %s", res.Text)
	}
}

func TestToolSearch_BadCalls(t *testing.T) {
	for _, tc := range []struct {
		env  *tools.Env
		args string
		want string
	}{
		{searchEnv(t), `{}`, "give a query"},
		{&tools.Env{}, `{"query":"x"}`, "no tool catalogue"},
		{&tools.Env{Tools: searchEnv(t).Tools}, `{"load":["git_log"]}`, "keeps no per-turn state"},
		{searchEnv(t), `{"query":"zzzz qqqq"}`, "no tool matches"},
	} {
		res := tooltest.Run(t, Tools()[0], tc.env, tc.args)
		if !strings.Contains(res.Text, tc.want) {
			t.Errorf("%s: %q, want %q", tc.args, res.Text, tc.want)
		}
	}
}
