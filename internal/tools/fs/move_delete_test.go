package fs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMovePath(t *testing.T) {
	env := newEnv(t, "src/a.go", "package a\n")
	if got := ok(t, env, MovePath, `{"from":"src","to":"lib/src"}`); got != "moved src to lib/src" {
		t.Errorf("result %q", got)
	}
	if readBack(t, env, "lib/src/a.go") != "package a\n" {
		t.Error("not moved")
	}
	writeFile(t, env, "x.txt", "")
	checkRefusals(t, env, MovePath, []refusal{
		{`{"from":"nope","to":"y"}`, "nope does not exist"},
		{`{"from":"x.txt","to":"lib/src/a.go"}`, "lib/src/a.go already exists; move_path does not overwrite (delete it first if that is intended)"},
		{`{"from":"lib","to":"lib/inner"}`, "cannot move lib into itself (lib/inner)"},
		{`{"from":"x.txt","to":"./x.txt"}`, "from and to are the same path: x.txt"},
	})
}

func TestDeletePath(t *testing.T) {
	env := newEnv(t, "f.txt", "x", "tree/a/b.txt", "x")
	os.Mkdir(filepath.Join(env.Dir, "empty"), 0o755)
	os.Symlink("tree", filepath.Join(env.Dir, "link"))
	tests := []struct{ args, result, gone string }{
		{`{"path":"f.txt"}`, "deleted f.txt", "f.txt"},
		{`{"path":"empty"}`, "deleted the directory empty", "empty"},
		{`{"path":"link"}`, "deleted link (not kept for undo_edit)", "link"},
		{`{"path":"tree","recursive":true}`, "deleted the directory tree", "tree"},
	}
	for _, tt := range tests {
		if got := ok(t, env, DeletePath, tt.args); got != tt.result {
			t.Errorf("%s: got %q", tt.args, got)
		}
		if _, err := os.Lstat(filepath.Join(env.Dir, tt.gone)); err == nil {
			t.Errorf("%s still exists", tt.gone)
		}
	}
}

func TestDeletePath_Refusals(t *testing.T) {
	env := newEnv(t, "tree/a.txt", "x")
	checkRefusals(t, env, DeletePath, []refusal{
		{`{"path":"tree"}`, "tree is a directory that is not empty; set recursive to delete it with everything in it"},
		{`{"path":".","recursive":true}`, "refusing to delete the working directory or a directory containing it (" + env.Dir + ")"},
		{`{"path":"..","recursive":true}`, "refusing to delete the working directory or a directory containing it (" + filepath.Dir(env.Dir) + ")"},
		{`{"path":"ghost"}`, "ghost does not exist"},
	})
	if readBack(t, env, "tree/a.txt") != "x" {
		t.Error("refused delete removed a file")
	}
}
