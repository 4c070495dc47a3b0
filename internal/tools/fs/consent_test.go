package fs

import (
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/tools"
)

func TestConsent_WritingTools(t *testing.T) {
	env := newEnv(t, "a.txt", "one\ntwo\n", "dir/x", "1", "dir/y", "2", "img.bin", "\x00\x01")
	tests := []struct{ tool, args, title, detail string }{
		{EditFile, jsonArgs("path", "a.txt", "old_string", "two", "new_string", "2"), "edit_file: a.txt",
			"modify a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"},
		{EditFile, jsonArgs("path", "a.txt", "old_string", "zzz", "new_string", "2"), "edit_file",
			"this call will fail: old_string was not found in a.txt; read the file again and copy the text exactly"},
		{DeletePath, `{"path":"a.txt"}`, "delete_path: a.txt",
			"delete a.txt (8 B)\n--- a/a.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n"},
		{DeletePath, `{"path":"img.bin"}`, "delete_path: img.bin", "delete img.bin (2 B)\n(binary content: 2 B before, 0 B after)\n"},
		{DeletePath, `{"path":"dir","recursive":true}`, "delete_path: dir/",
			"delete the directory dir and 2 entries inside it; this cannot be undone"},
		{MovePath, `{"from":"a.txt","to":"b.txt"}`, "move_path: a.txt -> b.txt", "move a.txt to b.txt\n"},
		{UndoEdit, `{}`, "undo_edit", "this call will fail: no edit by tai in this session to undo"},
	}
	for _, tt := range tests {
		c := byName(t, tt.tool).ConsentFor(tools.Call{Args: json.RawMessage(tt.args), Env: env})
		if c.Title != tt.title || c.Detail != tt.detail {
			t.Errorf("%s %s\n got: %q %q\nwant: %q %q", tt.tool, tt.args, c.Title, c.Detail, tt.title, tt.detail)
		}
	}
	ok(t, env, EditFile, jsonArgs("path", "a.txt", "old_string", "two", "new_string", "2"))
	c := byName(t, UndoEdit).ConsentFor(tools.Call{Args: json.RawMessage(`{}`), Env: env})
	if c.Title != "undo_edit: a.txt" || !strings.Contains(c.Detail, "-2\n+two\n") {
		t.Errorf("undo consent: %q %q", c.Title, c.Detail)
	}
	if readBack(t, env, "a.txt") != "one\n2\n" {
		t.Error("undo consent changed the file")
	}
}

func TestConsent_LongDiffIsCapped(t *testing.T) {
	env := newEnv(t)
	c := byName(t, WriteFile).ConsentFor(tools.Call{Env: env,
		Args: json.RawMessage(jsonArgs("path", "big.txt", "content", strings.Repeat("line\n", 1000)))})
	lines := strings.Split(strings.TrimSuffix(c.Detail, "\n"), "\n")
	if len(lines) != consentLines+1 || lines[consentLines] != "… 604 more lines of diff not shown" {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}
