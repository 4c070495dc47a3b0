package git

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/gitenv/gitenvtest"
	"tai/internal/proctest"
	"tai/internal/sandbox"
	"tai/internal/tools"
	"tai/internal/tools/tooltest"
)

// TestMain isolates git from the machine's configuration.
func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(os.Args[1:]); ok { // the git tools run git confined
		os.Exit(code)
	}
	dir, err := os.MkdirTemp("", "gittools")
	if err != nil {
		panic(err)
	}
	cfg := filepath.Join(dir, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = Tai Test\n\temail = tai@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	os.Setenv("GIT_CONFIG_GLOBAL", cfg)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	if err := proctest.Subreap(); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repo is a scratch repository with one commit of a.txt.
func repo(t *testing.T) *tools.Env {
	t.Helper()
	dir := t.TempDir()
	gitenvtest.Git(t, dir, "init", "-q")
	gitenvtest.Write(t, dir, "a.txt", "one\n")
	gitenvtest.Git(t, dir, "add", "a.txt")
	gitenvtest.Git(t, dir, "commit", "-qm", "first")
	return &tools.Env{Dir: dir}
}

var call = tooltest.Run

func wantText(t *testing.T, res tools.Result, parts ...string) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", res.Text)
	}
	for _, p := range parts {
		if !strings.Contains(res.Text, p) {
			t.Errorf("result lacks %q:\n%s", p, res.Text)
		}
	}
}

func wantError(t *testing.T, res tools.Result, part string) {
	t.Helper()
	if !res.IsError || !strings.Contains(res.Text, part) {
		t.Errorf("got %+v, want a tool error containing %q", res, part)
	}
}

func TestStatus(t *testing.T) {
	env := repo(t)
	res := call(t, Status(), env, `{}`)
	if res.Text != "## main\nnothing to commit, working tree clean\n" {
		t.Fatalf("clean status: %q", res.Text)
	}
	gitenvtest.Write(t, env.Dir, "a.txt", "one\ntwo\n")
	gitenvtest.Write(t, env.Dir, "b.txt", "new\n")
	wantText(t, call(t, Status(), env, `{}`), "## main\n", " M a.txt\n", "?? b.txt\n")
	res = call(t, Status(), env, `{"paths": ["b.txt"]}`)
	if strings.Contains(res.Text, "a.txt") || !strings.Contains(res.Text, "?? b.txt") {
		t.Errorf("status of b.txt: %q", res.Text)
	}
}

func TestDiff(t *testing.T) {
	env := repo(t)
	if res := call(t, Diff(), env, `{}`); res.Text != "(no differences)" {
		t.Fatalf("no changes: %q", res.Text)
	}
	gitenvtest.Write(t, env.Dir, "a.txt", "one\ntwo\n")
	wantText(t, call(t, Diff(), env, `{}`), "--- a/a.txt\n+++ b/a.txt\n", "+two\n")
	if res := call(t, Diff(), env, `{"staged": true}`); res.Text != "(no differences)" {
		t.Fatalf("nothing staged: %q", res.Text)
	}
	gitenvtest.Git(t, env.Dir, "add", "a.txt")
	wantText(t, call(t, Diff(), env, `{"staged": true, "context": 0}`), "@@ -1,0 +2 @@ one\n+two\n")
	wantText(t, call(t, Diff(), env, `{"rev": "HEAD", "stat": true}`), "a.txt | 1 +\n 1 file changed, 1 insertion(+)")
}

// A path that looks like an option is still a path: it follows "--".
func TestDiff_PathStartingWithDash(t *testing.T) {
	env := repo(t)
	gitenvtest.Write(t, env.Dir, "-rf", "x\n")
	gitenvtest.Git(t, env.Dir, "add", "--", "-rf")
	wantText(t, call(t, Diff(), env, `{"staged": true, "paths": ["-rf"]}`), "+++ b/-rf\n")
}

// No revision may become an option: the schema refuses it at the door,
// and checkRev again inside.
func TestRevisionsCannotBeOptions(t *testing.T) {
	env := repo(t)
	out := filepath.Join(t.TempDir(), "written")
	for _, tt := range []struct {
		tool *tools.Tool
		args string
	}{
		{Diff(), fmt.Sprintf(`{"rev": "--output=%s"}`, out)},
		{Log(), fmt.Sprintf(`{"rev": "--output=%s"}`, out)},
		{Show(), fmt.Sprintf(`{"rev": "--output=%s"}`, out)},
		{Branch(), `{"action": "create", "name": "-D"}`},
		{Branch(), `{"action": "switch", "name": "--orphan=x"}`},
		{Branch(), `{"action": "create", "name": "x", "start": "--help"}`},
	} {
		wantError(t, call(t, tt.tool, env, tt.args), `must match the pattern`)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("an --output argument reached git and wrote a file")
	}
	wantError(t, call(t, Log(), env, `{"rev": "HEAD main"}`), "must match the pattern")
	for rev, want := range map[string]string{"--output=x": "starts with '-'", "HEAD main": "contains whitespace", "a\x7fb": "control characters", "HEAD~1": ""} {
		if err := checkRev("rev", rev); want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("checkRev(%q) = %v, want %q", rev, err, want)
		}
	}
}

func TestLog(t *testing.T) {
	env := repo(t)
	for i := 2; i <= 4; i++ {
		gitenvtest.Write(t, env.Dir, fmt.Sprintf("f%d.txt", i), "x\n")
		gitenvtest.Git(t, env.Dir, "add", ".")
		gitenvtest.Git(t, env.Dir, "commit", "-qm", fmt.Sprintf("commit %d", i))
	}
	res := call(t, Log(), env, `{"limit": 2}`)
	lines := strings.Split(strings.TrimSpace(res.Text), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], " Tai Test: commit 4 (HEAD -> main)") || !strings.HasSuffix(lines[1], " Tai Test: commit 3") {
		t.Fatalf("log: %q", res.Text)
	}
	res = call(t, Log(), env, `{"paths": ["f2.txt"]}`)
	if n := strings.Count(res.Text, "\n"); n != 1 || !strings.Contains(res.Text, "commit 2") {
		t.Fatalf("log of f2.txt: %q", res.Text)
	}
	if res := call(t, Log(), env, `{"rev": "HEAD..HEAD"}`); res.Text != "(no commits)" {
		t.Fatalf("empty range: %q", res.Text)
	}
	wantError(t, call(t, Log(), env, `{"rev": "nosuchbranch"}`), "bad revision 'nosuchbranch'")
}

func TestShow(t *testing.T) {
	env := repo(t)
	wantText(t, call(t, Show(), env, `{}`), "Author: Tai Test <tai@example.com>", "    first\n", "+one\n")
	if res := call(t, Show(), env, `{"rev": "HEAD:a.txt"}`); res.Text != "one\n" {
		t.Fatalf("file at HEAD: %q", res.Text)
	}
	wantText(t, call(t, Show(), env, `{"stat": true}`), "a.txt | 1 +")
}

func TestNotARepository(t *testing.T) {
	env := &tools.Env{Dir: t.TempDir()}
	for _, tool := range []*tools.Tool{Status(), Diff(), Log(), Show()} {
		wantError(t, call(t, tool, env, `{}`), tool.Name+": not a git repository")
	}
}

func TestGitMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	wantError(t, call(t, Status(), repo0(t), `{}`), "git_status: git is not installed (not found on PATH)")
}

// repo0 is an empty directory, for tests that never reach git.
func repo0(t *testing.T) *tools.Env { return &tools.Env{Dir: t.TempDir()} }

func TestReadToolsAreSafe(t *testing.T) {
	for _, tool := range []*tools.Tool{Status(), Diff(), Log(), Show()} {
		if !tool.IsSafe(tools.Call{Args: json.RawMessage(`{}`)}) {
			t.Errorf("%s is read-only; want safe", tool.Name)
		}
	}
}
