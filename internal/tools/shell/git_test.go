package shell

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/gitenv/gitenvtest"
	"tai/internal/tools"
)

// A read-only line runs its git with tai's protections: none of the
// programs the repository's configuration names runs, whatever the
// subcommand, and git still answers.
func TestShell_ReadOnlyGitRunsNoRepositoryPrograms(t *testing.T) {
	gitenvtest.Isolate(t)
	for _, tt := range []struct{ line, want string }{
		{"git status --short", " M a.txt"},
		{"git status", "modified:"},
		{"git --no-pager log -p -1", "first"},
		{"git log --show-signature -1", "first"},
		{"git show --stat", "a.txt"},
		{"git show", "first"},
		{"git diff", "use git diff --no-ext-diff"},
		{"git diff --no-ext-diff", "+two"},
		{"git diff --ext-diff --textconv HEAD", "use git diff --no-ext-diff"},
		{"git blame a.txt", "two"},
		{"git ls-files -m", "a.txt"},
		{"git cat-file --textconv HEAD:a.txt", "one"},
		{"git cat-file --filters HEAD:a.txt", "one"},
		{"git branch -v", "main"},
		{"git grep -n two", "a.txt:1:two"},
		{"git status --short | wc -l", "1"},
	} {
		r := gitenvtest.Hostile(t)
		if err := ReadOnly(tt.line); err != nil {
			t.Fatalf("ReadOnly(%q) = %v; the test needs read-only lines", tt.line, err)
		}
		res := call(t, Shell(), &tools.Env{Dir: r.Dir}, shellArgsJSON(tt.line, ""))
		if !strings.Contains(res.Text, tt.want) {
			t.Errorf("%s: result lacks %q:\n%s", tt.line, tt.want, res.Text)
		}
		if ran := r.Ran(t); ran != "" {
			t.Errorf("%s ran the repository's programs:\n%s\nresult:\n%s", tt.line, ran, res.Text)
		}
	}
}

// A bare repository checked in to a clone: walking into it with cd is not
// read-only (the person is asked, and told why); git run read-only in the
// clone runs nothing of either repository's; and a read-only git whose
// working directory is inside the bare repository is refused by git.
func TestShell_CheckedInBareRepository(t *testing.T) {
	gitenvtest.Isolate(t)
	r := gitenvtest.Hostile(t)
	evil := r.Bare(t)
	line := shellArgsJSON("cd evil && git status --short", "")
	if Shell().IsSafe(tools.Call{Args: json.RawMessage(line)}) {
		t.Fatal("cd into a checked-in repository and git status runs unasked")
	}
	if c := Shell().ConsentFor(tools.Call{Args: json.RawMessage(line)}); !strings.Contains(c.Detail, "Not read-only: git after cd") {
		t.Errorf("consent does not say why it asks:\n%s", c.Detail)
	}

	res := call(t, Shell(), &tools.Env{Dir: r.Dir}, shellArgsJSON("git status --short", ""))
	if !strings.Contains(res.Text, "?? evil/") {
		t.Errorf("status in the clone:\n%s", res.Text)
	}
	res = call(t, Shell(), &tools.Env{Dir: evil}, shellArgsJSON("git status --short", ""))
	if !strings.Contains(res.Text, "cannot use bare repository") || !strings.HasSuffix(res.Text, "[exit code 128]") {
		t.Errorf("status inside the bare repository: %+v", res)
	}
	if ran := r.Ran(t); ran != "" {
		t.Errorf("ran the repositories' programs:\n%s", ran)
	}
}

// A line the person approved runs as approved: its git is not changed by
// tai, so the repository's configuration applies (here, its fsmonitor).
func TestShell_ApprovedGitRunsAsConfigured(t *testing.T) {
	gitenvtest.Isolate(t)
	r := gitenvtest.Hostile(t)
	line := "git status --short > /dev/null; touch x"
	if ReadOnly(line) == nil {
		t.Fatalf("%q is read-only; the test needs a line that asks", line)
	}
	call(t, Shell(), &tools.Env{Dir: r.Dir}, shellArgsJSON(line, ""))
	if ran := r.Ran(t); !strings.Contains(ran, "fsmonitor") {
		t.Errorf("an approved git status ran without the repository's fsmonitor: %q", ran)
	}
}

// git status looks inside submodules with a child git; the protections
// reach it through the environment, so the submodule's own fsmonitor does
// not run either.
func TestShell_ReadOnlyGitProtectsSubmodules(t *testing.T) {
	gitenvtest.Isolate(t)
	r := gitenvtest.Hostile(t)
	sub := gitenvtest.Hostile(t)
	gitenvtest.Git(t, r.Dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "sub")
	gitenvtest.Git(t, r.Dir, "-C", "sub", "config", "core.fsmonitor", sub.Program("fsmonitor"))
	if err := os.WriteFile(filepath.Join(r.Dir, "sub", "new.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Forget(t)
	sub.Forget(t)
	res := call(t, Shell(), &tools.Env{Dir: r.Dir}, shellArgsJSON("git status --short", ""))
	if !strings.Contains(res.Text, " M sub") && !strings.Contains(res.Text, " m sub") && !strings.Contains(res.Text, "? sub") {
		t.Errorf("status does not report the submodule:\n%s", res.Text)
	}
	if ran := r.Ran(t) + sub.Ran(t); ran != "" {
		t.Errorf("ran the repositories' programs:\n%s", ran)
	}
}
