package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUndoEdit_StepsBack(t *testing.T) {
	env := newEnv(t, "a.txt", "v1\n")
	ok(t, env, EditFile, jsonArgs("path", "a.txt", "old_string", "v1", "new_string", "v2"))
	ok(t, env, WriteFile, jsonArgs("path", "a.txt", "content", "v3\n"))
	ok(t, env, WriteFile, jsonArgs("path", "b.txt", "content", "new\n"))

	if got := ok(t, env, UndoEdit, `{}`); got != "undid write_file: removed b.txt" {
		t.Errorf("first undo: %q", got)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "b.txt")); err == nil {
		t.Error("created file survived its undo")
	}
	if got := ok(t, env, UndoEdit, `{"path":"a.txt"}`); got != "undid write_file: reverted a.txt" || readBack(t, env, "a.txt") != "v2\n" {
		t.Errorf("second undo: %q, file %q", got, readBack(t, env, "a.txt"))
	}
	ok(t, env, UndoEdit, `{}`)
	if readBack(t, env, "a.txt") != "v1\n" {
		t.Errorf("third undo left %q", readBack(t, env, "a.txt"))
	}
	if got := fails(t, env, UndoEdit, `{}`); got != "no edit by tai in this session to undo" {
		t.Errorf("empty history: %q", got)
	}
}

func TestUndoEdit_RefusesWhenFileChangedSince(t *testing.T) {
	env := newEnv(t)
	p := writeFile(t, env, "a.txt", "v1\n")
	ok(t, env, WriteFile, jsonArgs("path", "a.txt", "content", "v2\n"))
	os.WriteFile(p, []byte("edited by a person\n"), 0o644)
	want := "a.txt changed after tai's edit; undo would discard those changes: read it and edit it instead"
	if got := fails(t, env, UndoEdit, `{}`); got != want {
		t.Errorf("got %q", got)
	}
	if readBack(t, env, "a.txt") != "edited by a person\n" {
		t.Error("refused undo changed the file")
	}
}

func TestUndoEdit_PatchMoveAndDelete(t *testing.T) {
	env := newEnv(t, "a.txt", "one\n", "b.txt", "two\n")
	ok(t, env, ApplyPatch, patchArgs("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+2\n"))
	ok(t, env, MovePath, `{"from":"a.txt","to":"dir/moved.txt"}`)
	ok(t, env, DeletePath, `{"path":"b.txt"}`)

	steps := []string{
		"undid delete_path: restored b.txt",
		"undid move_path: moved dir/moved.txt back to a.txt",
		"undid apply_patch: reverted a.txt, reverted b.txt",
	}
	for _, want := range steps {
		if got := ok(t, env, UndoEdit, `{}`); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	if readBack(t, env, "a.txt") != "one\n" || readBack(t, env, "b.txt") != "two\n" {
		t.Errorf("files after undo: %q %q", readBack(t, env, "a.txt"), readBack(t, env, "b.txt"))
	}
}

func TestUndoEdit_OneFileOfAPatch(t *testing.T) {
	env := newEnv(t, "a.txt", "one\n", "b.txt", "two\n")
	ok(t, env, ApplyPatch, patchArgs("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+2\n"))
	ok(t, env, UndoEdit, `{"path":"b.txt"}`)
	if readBack(t, env, "a.txt") != "1\n" || readBack(t, env, "b.txt") != "two\n" {
		t.Fatalf("got %q %q", readBack(t, env, "a.txt"), readBack(t, env, "b.txt"))
	}
	if got := fails(t, env, UndoEdit, `{"path":"b.txt"}`); got != "no edit of b.txt by tai in this session to undo" {
		t.Errorf("got %q", got)
	}
	ok(t, env, UndoEdit, `{}`)
	if readBack(t, env, "a.txt") != "one\n" {
		t.Errorf("a.txt = %q", readBack(t, env, "a.txt"))
	}
}

func TestUndoEdit_WithoutHostState(t *testing.T) {
	env := newEnv(t)
	env.State = nil
	ok(t, env, WriteFile, jsonArgs("path", "a.txt", "content", "x"))
	if got := fails(t, env, UndoEdit, `{}`); !strings.HasPrefix(got, "no edit by tai") {
		t.Errorf("got %q", got)
	}
}

func TestHistory_Caps(t *testing.T) {
	h := &history{}
	big := make([]byte, historyBytes/2+1)
	for i := 0; i < 3; i++ {
		h.push(&change{tool: WriteFile, files: []*fileChange{{path: "/x", old: big}}})
	}
	if len(h.entries) != 1 || h.bytes != len(big) {
		t.Errorf("kept %d entries, %d bytes", len(h.entries), h.bytes)
	}
	h = &history{}
	for i := 0; i < historyMax+10; i++ {
		h.push(&change{tool: WriteFile, files: []*fileChange{{path: "/x"}}})
	}
	if len(h.entries) != historyMax {
		t.Errorf("kept %d entries, want %d", len(h.entries), historyMax)
	}
}

// TestCommit_RollsBackWhenAWriteFails fails the second write of a change
// (its directory path is a file) and checks the first is put back.
func TestCommit_RollsBackWhenAWriteFails(t *testing.T) {
	env := newEnv(t)
	a := writeFile(t, env, "a.txt", "old\n")
	writeFile(t, env, "blocker", "")
	c := &change{tool: ApplyPatch, files: []*fileChange{
		{path: a, name: "a.txt", existed: true, old: []byte("old\n"), new: []byte("new\n"), mode: 0o644},
		{path: filepath.Join(env.Dir, "blocker", "b.txt"), name: "blocker/b.txt", new: []byte("x"), mode: 0o644},
	}}
	err := commit(env, c, true)
	if err == nil || !strings.HasPrefix(err.Error(), "blocker/b.txt: nothing was changed: ") {
		t.Fatalf("got %v", err)
	}
	if readBack(t, env, "a.txt") != "old\n" {
		t.Error("first file not rolled back")
	}
	if len(historyOf(env).entries) != 0 {
		t.Error("failed change recorded for undo")
	}
}
