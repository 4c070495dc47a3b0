package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/gitenv/gitenvtest"
	"tai/internal/sandbox"
	"tai/internal/tools"
)

// confinedRepo is repo with the host confining commands, and a home
// holding a key.
func confinedRepo(t *testing.T) (*tools.Env, string) {
	t.Helper()
	if st := sandbox.Probe(); !st.Landlock || !st.Namespaces {
		t.Fatalf("this machine's kernel should confine: %+v", st)
	}
	env := repo(t)
	home := t.TempDir()
	key := filepath.Join(home, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	if err := os.WriteFile(key, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	env.Sandbox = &tools.Sandbox{Mode: sandbox.WorkspaceWrite, Home: home, TaiHome: filepath.Join(t.TempDir(), "tai")}
	return env, key
}

// git confined as the shell's commands are still reads and commits the
// workspace.
func TestSandbox_GitToolsWorkConfined(t *testing.T) {
	env, _ := confinedRepo(t)
	gitenvtest.Write(t, env.Dir, "b.txt", "two\n")
	wantText(t, call(t, Status(), env, `{}`), "b.txt")
	wantText(t, call(t, Commit(), env, `{"message":"second","paths":["b.txt"]}`), "second")
	wantText(t, call(t, Log(), env, `{}`), "second", "first")
}

// What git runs is confined: a git that tries to read a protected key (as
// a credential helper or an ssh command could) reads nothing.
func TestSandbox_GitToolsRunConfined(t *testing.T) {
	env, key := confinedRepo(t)
	bin := t.TempDir()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\ncase \"$*\" in *status*) cat " + key + " 2>&1; echo read-attempted; exit 0;; esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	res := call(t, Status(), env, `{}`)
	if !strings.Contains(res.Text, "read-attempted") {
		t.Fatalf("the fake git did not run: %s", res.Text)
	}
	if strings.Contains(res.Text, "PRIVATE KEY") {
		t.Fatalf("git read the key: %s", res.Text)
	}
	env.Sandbox = nil // unconfined, the same git reads it: the test can fail
	if res := call(t, Status(), env, `{}`); !strings.Contains(res.Text, "PRIVATE KEY") {
		t.Fatalf("unconfined, the fake git did not read the key: %s", res.Text)
	}
}
