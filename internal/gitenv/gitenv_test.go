package gitenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/gitenv/gitenvtest"
)

func TestParseVersion(t *testing.T) {
	for _, tt := range []struct{ out, err string }{
		{"git version 2.39.5\n", ""},
		{"git version 2.31.0", ""},
		{"git version 3.0.0", ""},
		{"git version 2.39.5 (Apple Git-143)", ""},
		{"git version 2.45.1.windows.1", ""},
		{"git version 2.30.9", "git 2.30.9 is too old: tai needs git 2.31 or newer"},
		{"git version 1.9", "git 1.9 is too old"},
		{"hello", "cannot read git's version"},
		{"git version x.y", "cannot read git's version"},
	} {
		err := parseVersion(tt.out)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("parseVersion(%q) = %v, want %q", tt.out, err, tt.err)
		}
	}
}

// The person's own GIT_CONFIG_COUNT entries are kept, and tai's come
// after them so that they win; GIT_CONFIG_PARAMETERS, which git reads
// later still, and GIT_EXTERNAL_DIFF are dropped.
func TestWithSettings(t *testing.T) {
	got := withSettings([]string{
		"HOME=/h", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=Me",
		"GIT_CONFIG_PARAMETERS='core.fsmonitor'='x'", "GIT_EXTERNAL_DIFF=x", "GIT_PAGER=less",
	}, []setting{{"core.fsmonitor", "false"}, {"filter.x.clean", ""}})
	want := []string{
		"HOME=/h", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=Me",
		"GIT_PAGER=cat", "GIT_ALLOW_PROTOCOL=", "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true",
		"GIT_SEQUENCE_EDITOR=true", "GIT_OPTIONAL_LOCKS=0",
		"GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false",
		"GIT_CONFIG_KEY_2=filter.x.clean", "GIT_CONFIG_VALUE_2=",
		"GIT_CONFIG_COUNT=3",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withSettings (-want +got):\n%s", diff)
	}
}

// A program key the repository sets gets the person's value back when
// they set one, else the neutral value; keys only the person sets are
// left alone.
func TestOverrides(t *testing.T) {
	got := overrides([]entry{
		{"global", "filter.lfs.clean", "git-lfs clean -- %f"},
		{"global", "diff.img.textconv", "exiftool"},
		{"local", "filter.lfs.clean", "./evil"},
		{"local", "filter.x.process", "./evil"},
		{"worktree", "diff.d.textconv", "./evil"},
		{"local", "gpg.ssh.program", "./evil"},
		{"local", "core.fsmonitor", "./evil"}, // fixed, not per repository
		{"local", "user.name", "x"},
	})
	want := []setting{
		{"filter.lfs.clean", "git-lfs clean -- %f"},
		{"filter.x.process", ""}, {"filter.x.required", "false"},
		{"diff.d.textconv", "cat"},
		{"gpg.ssh.program", "ssh-keygen"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(setting{})); diff != "" {
		t.Errorf("overrides (-want +got):\n%s", diff)
	}
}

// With real git: the person's filter, redefined by the repository, runs
// as the person defined it; the repository's own never runs.
func TestEnv_PersonsFilterRunsRepositorysDoesNot(t *testing.T) {
	gitenvtest.Isolate(t)
	r := gitenvtest.Hostile(t)
	mine := filepath.Join(t.TempDir(), "mine")
	f, err := os.OpenFile(os.Getenv("GIT_CONFIG_GLOBAL"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[filter \"x\"]\n\tclean = \"echo mine >> '" + mine + "'; cat\"\n")
	f.Close()

	environ, err := Env(context.Background(), r.Dir, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "diff", "--no-ext-diff")
	cmd.Dir, cmd.Env = r.Dir, environ
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "+two") {
		t.Fatalf("git diff: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(mine); !strings.Contains(string(b), "mine") {
		t.Error("the person's clean filter did not run")
	}
	if ran := r.Ran(t); ran != "" {
		t.Errorf("the repository's programs ran:\n%s", ran)
	}
	if !slices.Contains(environ, "GIT_PAGER=cat") {
		t.Error("no GIT_PAGER=cat")
	}
}

// Outside any repository the listing still works (system and global
// configuration only), so git can say itself that there is no repository.
func TestEnv_OutsideARepository(t *testing.T) {
	gitenvtest.Isolate(t)
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	if _, err := Env(context.Background(), t.TempDir(), os.Environ()); err != nil {
		t.Fatal(err)
	}
}
