package fs

import (
	"testing"
)

const goSrc = "package main\n\nfunc main() {\n\tprintln(\"hi\")\n\tprintln(\"hi\")\n}\n"

func TestEditFile(t *testing.T) {
	tests := []struct {
		name, file, args, result, after string
	}{
		{"unique", goSrc, jsonArgs("path", "m.go", "old_string", "func main() {", "new_string", "func run() {"),
			"edited m.go: replaced 1 occurrence at line 3", "package main\n\nfunc run() {\n\tprintln(\"hi\")\n\tprintln(\"hi\")\n}\n"},
		{"replace all", goSrc, jsonArgs("path", "m.go", "old_string", `"hi"`, "new_string", `"yo"`, "replace_all", true),
			"edited m.go: replaced 2 occurrences", "package main\n\nfunc main() {\n\tprintln(\"yo\")\n\tprintln(\"yo\")\n}\n"},
		{"CRLF file, LF strings", "a\r\nb\r\nc\r\n", jsonArgs("path", "m.go", "old_string", "a\nb", "new_string", "A\nB"),
			"edited m.go: replaced 1 occurrence at line 1", "A\r\nB\r\nc\r\n"},
		{"deletion", "keep\ndrop\n", jsonArgs("path", "m.go", "old_string", "drop\n", "new_string", ""),
			"edited m.go: replaced 1 occurrence at line 2", "keep\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, "m.go", tt.file)
			if got := ok(t, env, EditFile, tt.args); got != tt.result {
				t.Errorf("result %q, want %q", got, tt.result)
			}
			if got := readBack(t, env, "m.go"); got != tt.after {
				t.Errorf("file %q, want %q", got, tt.after)
			}
		})
	}
}

func TestEditFile_FailuresChangeNothing(t *testing.T) {
	tests := []struct{ name, args, want string }{
		{"not unique", jsonArgs("path", "m.go", "old_string", `println("hi")`, "new_string", "x"),
			`old_string occurs 2 times in m.go (lines 4, 5); include more surrounding lines to make it unique, or set replace_all`},
		{"absent", jsonArgs("path", "m.go", "old_string", "func nope()", "new_string", "x"),
			"old_string was not found in m.go; read the file again and copy the text exactly"},
		{"whitespace differs", jsonArgs("path", "m.go", "old_string", "func main() {\n    println(\"hi\")", "new_string", "x"),
			"old_string was not found in m.go; the same text with different whitespace or indentation starts at line 3: copy it exactly"},
		{"line numbers copied", jsonArgs("path", "m.go", "old_string", "     3\tfunc main() {", "new_string", "x"),
			"old_string was not found in m.go; it seems to include read_file's line-number prefixes, which are not part of the file"},
		{"no change", jsonArgs("path", "m.go", "old_string", "main", "new_string", "main"),
			"old_string and new_string are the same; there is nothing to change"},
		{"missing file", jsonArgs("path", "n.go", "old_string", "a", "new_string", "b"),
			"n.go does not exist; did you mean m.go? (to create a file, use write_file)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, "m.go", goSrc)
			if got := fails(t, env, EditFile, tt.args); got != tt.want {
				t.Errorf("got:  %s\nwant: %s", got, tt.want)
			}
			if readBack(t, env, "m.go") != goSrc {
				t.Error("a failed edit changed the file")
			}
		})
	}
}

func TestMultiEdit_AllOrNothing(t *testing.T) {
	env := newEnv(t, "m.go", goSrc)
	args := jsonArgs("path", "m.go", "edits", []map[string]any{
		{"old_string": "package main", "new_string": "package app"},
		{"old_string": "no such text", "new_string": "x"},
	})
	want := "edit 2 of 2: old_string was not found in m.go; read the file again and copy the text exactly; no edit was made"
	if got := fails(t, env, MultiEdit, args); got != want {
		t.Errorf("got:  %s\nwant: %s", got, want)
	}
	if readBack(t, env, "m.go") != goSrc {
		t.Fatal("a failed multi_edit changed the file")
	}
	args = jsonArgs("path", "m.go", "edits", []map[string]any{
		{"old_string": "package main", "new_string": "package app"},
		{"old_string": "func main", "new_string": "func Run"},
		{"old_string": "hi", "new_string": "yo", "replace_all": true},
	})
	if got := ok(t, env, MultiEdit, args); got != "edited m.go: 3 edits, 4 replacements" {
		t.Errorf("result %q", got)
	}
	if got, want := readBack(t, env, "m.go"), "package app\n\nfunc Run() {\n\tprintln(\"yo\")\n\tprintln(\"yo\")\n}\n"; got != want {
		t.Errorf("file %q, want %q", got, want)
	}
}
