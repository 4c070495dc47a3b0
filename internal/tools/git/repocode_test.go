package git

import (
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/gitenv/gitenvtest"
	"tai/internal/tools"
)

// No read tool runs a program the repository's configuration names
// (fsmonitor, filters, textconv, external diff, gpg, hooks), and each
// still answers.
func TestReadTools_RunNoRepositoryPrograms(t *testing.T) {
	for _, tt := range []struct {
		tool *tools.Tool
		args string
		want string
	}{
		{Status(), `{}`, " M a.txt"},
		{Diff(), `{}`, "+two"},
		{Diff(), `{"stat": true}`, "a.txt"},
		{Diff(), `{"rev": "HEAD"}`, "-one"},
		{Log(), `{}`, "first"},
		{Show(), `{}`, "+one"},
		{Show(), `{"rev": "HEAD:a.txt"}`, "one"},
		{Branch(), `{}`, "main"},
	} {
		r := gitenvtest.Hostile(t)
		res := call(t, tt.tool, &tools.Env{Dir: r.Dir}, tt.args)
		wantText(t, res, tt.want)
		if ran := r.Ran(t); ran != "" {
			t.Errorf("%s %s ran the repository's programs:\n%s", tt.tool.Name, tt.args, ran)
		}
	}
}

// A commit and a switch, approved by the person, still run none of the
// repository's hooks or filters.
func TestWriteTools_RunNoRepositoryPrograms(t *testing.T) {
	r := gitenvtest.Hostile(t)
	env := &tools.Env{Dir: r.Dir}
	wantText(t, call(t, Commit(), env, `{"message": "second", "all": true}`), "second")
	wantText(t, call(t, Branch(), env, `{"action": "switch", "name": "side", "create": true}`), "done")
	wantText(t, call(t, Branch(), env, `{"action": "switch", "name": "main"}`), "done")
	if ran := r.Ran(t); ran != "" {
		t.Errorf("commit and switch ran the repository's programs:\n%s", ran)
	}
	if got := gitenvtest.Git(t, r.Dir, "show", "--no-textconv", "HEAD:a.txt"); got != "two\n" {
		t.Errorf("committed a.txt = %q, want two", got)
	}
}

// The approval screen of a commit says that hooks do not run.
func TestCommit_ConsentSaysHooksDoNotRun(t *testing.T) {
	env := repo(t)
	c := Commit().ConsentFor(tools.Call{Args: json.RawMessage(`{"message": "m"}`), Env: env})
	if !strings.Contains(c.Detail, "hooks do not run") {
		t.Fatalf("consent does not say whether hooks run:\n%s", c.Detail)
	}
}

// git_status does not walk into a bare repository checked in to the work
// tree: git refuses it, and its fsmonitor does not run.
func TestStatus_RefusesCheckedInBareRepository(t *testing.T) {
	r := gitenvtest.Hostile(t)
	evil := r.Bare(t)
	wantError(t, call(t, Status(), &tools.Env{Dir: evil}, `{}`), "bare repository")
	if ran := r.Ran(t); ran != "" {
		t.Errorf("status in a checked-in bare repository ran:\n%s", ran)
	}
}
