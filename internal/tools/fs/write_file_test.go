package fs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tai/internal/tools"
)

func TestWriteFile_CreatesWithParents(t *testing.T) {
	env := newEnv(t)
	got := ok(t, env, WriteFile, `{"path":"a/b/new.txt","content":"x\ny\n"}`)
	if got != "created a/b/new.txt (2 lines, 4 B)" {
		t.Errorf("result %q", got)
	}
	if readBack(t, env, "a/b/new.txt") != "x\ny\n" {
		t.Error("content not written")
	}
}

func TestWriteFile_ReplacesKeepingModeAndLeavesNoTemp(t *testing.T) {
	env := newEnv(t)
	p := writeFile(t, env, "run.sh", "echo old\n")
	os.Chmod(p, 0o750)
	ok(t, env, WriteFile, `{"path":"run.sh","content":"echo new\n"}`)
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(env.Dir)
	if len(entries) != 1 || readBack(t, env, "run.sh") != "echo new\n" {
		t.Errorf("directory holds %d entries, content %q", len(entries), readBack(t, env, "run.sh"))
	}
}

func TestWriteFile_FollowsSymlink(t *testing.T) {
	env := newEnv(t, "real.txt", "old\n")
	os.Symlink("real.txt", filepath.Join(env.Dir, "alias.txt"))
	ok(t, env, WriteFile, `{"path":"alias.txt","content":"new\n"}`)
	if fi, _ := os.Lstat(filepath.Join(env.Dir, "alias.txt")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if readBack(t, env, "real.txt") != "new\n" {
		t.Error("the target was not written")
	}
}

func TestWriteFile_Refusals(t *testing.T) {
	env := newEnv(t, "blob.bin", "\x00\x01\x02", "file", "")
	os.Mkdir(filepath.Join(env.Dir, "dir"), 0o755)
	checkRefusals(t, env, WriteFile, []refusal{
		{`{"path":"blob.bin","content":"x"}`, "blob.bin is a binary file; the editing tools change text only"},
		{`{"path":"dir","content":"x"}`, "dir is a directory, not a file"},
		{`{"path":"file/child","content":"x"}`, "file/child: stat failed: not a directory"},
	})
	if readBack(t, env, "blob.bin") != "\x00\x01\x02" {
		t.Error("refused write changed the file")
	}
}

func TestWriteFile_ConsentShowsDiff(t *testing.T) {
	env := newEnv(t, "a.txt", "one\ntwo\n")
	c := byName(t, WriteFile).ConsentFor(tools.Call{Args: json.RawMessage(`{"path":"a.txt","content":"one\n2\n"}`), Env: env})
	want := tools.Consent{Title: "write_file: a.txt",
		Detail: "modify a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
		Grants: []tools.Grant{{Kind: tools.GrantEdit, Subject: tools.Resolve(env.Dir)}}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	c = byName(t, WriteFile).ConsentFor(tools.Call{Args: json.RawMessage(`{"path":"n.txt","content":"hi\n"}`), Env: env})
	if !strings.HasPrefix(c.Detail, "create n.txt (3 B)\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hi\n") {
		t.Errorf("new file consent: %q", c.Detail)
	}
	if readBack(t, env, "a.txt") != "one\ntwo\n" {
		t.Error("consent wrote the file")
	}
}
