package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListDir(t *testing.T) {
	env := newEnv(t, "b.txt", "hello", ".hidden", "", "src/main.go", "package main\n")
	os.Symlink("b.txt", filepath.Join(env.Dir, "link"))
	want := ".hidden (0 B)\nb.txt (5 B)\nlink -> b.txt\nsrc/\n"
	if got := ok(t, env, ListDir, `{}`); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := ok(t, env, ListDir, `{"path":"src"}`); got != "main.go (13 B)\n" {
		t.Errorf("src: got %q", got)
	}
	os.Mkdir(filepath.Join(env.Dir, "empty"), 0o755)
	if got := ok(t, env, ListDir, `{"path":"empty"}`); got != "(empty directory)" {
		t.Errorf("empty: got %q", got)
	}
}

func TestListDir_Cap(t *testing.T) {
	env := newEnv(t)
	for i := 0; i < listCap+5; i++ {
		writeFile(t, env, fmt.Sprintf("f%04d", i), "")
	}
	got := ok(t, env, ListDir, `{}`)
	if lines := strings.Count(got, "\n"); lines != listCap+1 || !strings.HasSuffix(got, "[5 more entries not shown]\n") {
		t.Errorf("got %d lines ending %q", lines, got[len(got)-40:])
	}
}

func TestListDir_Refusals(t *testing.T) {
	env := newEnv(t, "f.txt", "")
	checkRefusals(t, env, ListDir, []refusal{
		{`{"path":"f.txt"}`, "f.txt is a file, not a directory; use read_file to read it"},
		{`{"path":"nope"}`, "nope does not exist"},
	})
}
