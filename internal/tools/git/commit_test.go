package git

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tai/internal/gitenv/gitenvtest"
	"tai/internal/proctest"
	"tai/internal/tools"
)

func TestCommit_StagesPathsAndCommits(t *testing.T) {
	env := repo(t)
	gitenvtest.Write(t, env.Dir, "b.txt", "new\n")
	res := call(t, Commit(), env, `{"message": "-m looks like a flag\n\nbody line", "paths": ["b.txt"]}`)
	wantText(t, res, "[main ", "] -m looks like a flag\n", "1 file changed")
	if got := gitenvtest.Git(t, env.Dir, "log", "-1", "--format=%B"); got != "-m looks like a flag\n\nbody line\n\n" {
		t.Fatalf("message recorded as %q", got)
	}
	if got := gitenvtest.Git(t, env.Dir, "show", "--name-only", "--format=", "HEAD"); got != "b.txt\n" {
		t.Fatalf("committed files %q", got)
	}
}

func TestCommit_All(t *testing.T) {
	env := repo(t)
	gitenvtest.Write(t, env.Dir, "a.txt", "changed\n")
	gitenvtest.Write(t, env.Dir, "untracked.txt", "x\n")
	wantText(t, call(t, Commit(), env, `{"message": "update a", "all": true}`), "update a")
	if st := gitenvtest.Git(t, env.Dir, "status", "--short"); st != "?? untracked.txt\n" {
		t.Fatalf("after commit -a: %q", st)
	}
}

func TestCommit_BadInputs(t *testing.T) {
	env := repo(t)
	wantError(t, call(t, Commit(), env, `{"message": "nothing"}`), "git_commit: On branch main\nnothing to commit, working tree clean")
	wantError(t, call(t, Commit(), env, `{"message": "x", "paths": ["missing.txt"]}`), "git_commit: staging: pathspec 'missing.txt' did not match any files")
	wantError(t, call(t, Commit(), env, `{"message": ""}`), `argument "message"`)
	wantError(t, call(t, Commit(), env, `{"message": "  \n"}`), "the message is empty")
	wantError(t, call(t, Commit(), env, `{"paths": ["a.txt"]}`), `"message"`)
}

func TestCommit_ConsentShowsWhatWillBeCommitted(t *testing.T) {
	env := repo(t)
	gitenvtest.Write(t, env.Dir, "a.txt", "changed\n")
	gitenvtest.Write(t, env.Dir, "staged.txt", "s\n")
	gitenvtest.Git(t, env.Dir, "add", "staged.txt")
	gitenvtest.Write(t, env.Dir, "new.txt", "n\n")
	c := Commit().ConsentFor(tools.Call{
		Args: json.RawMessage(`{"message": "Add things\n\nWith a body.", "paths": ["new.txt"], "all": true}`),
		Env:  env,
	})
	if c.Title != "git commit: Add things" {
		t.Errorf("title %q", c.Title)
	}
	for _, want := range []string{
		"Message:\n  Add things\n  \n  With a body.\n",
		"Staged already:\n   staged.txt | 1 +",
		"Stages these paths:\n  ?? new.txt",
		"Stages every change to tracked files:\n   a.txt | 2 +-",
	} {
		if !strings.Contains(c.Detail, want) {
			t.Errorf("consent lacks %q:\n%s", want, c.Detail)
		}
	}
	if Commit().IsSafe(tools.Call{Args: json.RawMessage(`{"message": "x"}`)}) {
		t.Error("git_commit must never be safe")
	}
}

// Cancelling a commit kills git and the program it is running: a clean
// filter the person's own configuration names, which runs (unlike the
// repository's programs) when a commit stages a file.
func TestCommit_CancelKillsTheFilter(t *testing.T) {
	env := repo(t)
	fifo := filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The filter becomes the sleep, a direct child of git, adopted by the
	// test as soon as git is killed.
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "filter.slow.clean")
	t.Setenv("GIT_CONFIG_VALUE_0", "echo $$ > "+fifo+"; exec sleep 1000")
	gitenvtest.Write(t, env.Dir, ".gitattributes", "a.txt filter=slow\n")
	gitenvtest.Write(t, env.Dir, "a.txt", "changed\n")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tools.Result)
	go func() {
		res, _ := tools.Invoke(ctx, Commit(), tools.Call{Args: json.RawMessage(`{"message": "m", "all": true}`), Env: env}, tools.Via{})
		done <- res.Result
	}()
	started, err := os.ReadFile(fifo) // blocks until the filter runs
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	wantError(t, <-done, "git_commit: git commit was cancelled")
	pid, _ := strconv.Atoi(strings.TrimSpace(string(started)))
	proctest.AssertKilled(t, pid)
	if log := gitenvtest.Git(t, env.Dir, "log", "--format=%s"); log != "first\n" {
		t.Fatalf("a cancelled commit was recorded: %q", log)
	}
}
