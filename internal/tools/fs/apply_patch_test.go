package fs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/textdiff"
	"tai/internal/tools"
)

func patchArgs(p string) string { return jsonArgs("patch", p) }

func TestApplyPatch_MultiFile(t *testing.T) {
	env := newEnv(t, "a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "gone.txt", "bye\n", "old/name.txt", "same\n")
	patch := `Some prose a model wrote before the diff.
diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 1
-2
+two
 3
@@ -7,3 +7,4 @@
 7
 8
 9
+10
--- /dev/null
+++ b/new/file.txt
@@ -0,0 +1,2 @@
+hello
+world
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old/name.txt b/new/name.txt
similarity index 100%
rename from old/name.txt
rename to new/name.txt
`
	got := ok(t, env, ApplyPatch, patchArgs(patch))
	if want := "patched 5 files: a.txt, new/file.txt, gone.txt, old/name.txt, new/name.txt"; got != want {
		t.Errorf("result %q, want %q", got, want)
	}
	for name, want := range map[string]string{
		"a.txt":        "1\ntwo\n3\n4\n5\n6\n7\n8\n9\n10\n",
		"new/file.txt": "hello\nworld\n",
		"new/name.txt": "same\n",
	} {
		if got := readBack(t, env, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"gone.txt", "old/name.txt"} {
		if _, err := os.Stat(filepath.Join(env.Dir, name)); err == nil {
			t.Errorf("%s still exists", name)
		}
	}
}

func TestApplyPatch_Placement(t *testing.T) {
	tests := []struct{ name, file, patch, want string }{
		{"drifted line numbers", "x\nx2\na\nb\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", "x\nx2\na\nB\nc\n"},
		{"nearest of two matches", "a\nb\na\nb\n", "--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n a\n-b\n+B\n", "a\nb\na\nB\n"},
		{"trailing whitespace ignored", "a  \nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n", "a  \nB\n"},
		{"blank context without its space", "a\n\nb\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+B\n", "a\n\nB\n"},
		{"bare @@ header", "a\nb\n", "--- f\n+++ f\n@@\n-a\n+A\n b\n", "A\nb\n"},
		{"CRLF file keeps CRLF", "a\r\nb\r\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+new\n b\n", "a\r\nnew\r\nb\r\n"},
		{"add final newline", "a", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n", "a\n"},
		{"drop final newline", "a\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n", "a"},
		{"append after last line without newline", "a", "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n\\ No newline at end of file\n+b\n", "a\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, "f", tt.file)
			ok(t, env, ApplyPatch, patchArgs(tt.patch))
			if got := readBack(t, env, "f"); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestApplyPatch_FailuresChangeNothing(t *testing.T) {
	good := "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
	tests := []struct{ name, patch, want string }{
		{"second file's hunk does not apply", good + "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n alpha\n-gamma\n+G\n",
			`hunk 1 (@@ -1,2 +1,2 @@) of b.txt does not apply: at line 2 the file has "beta" where the hunk expects "gamma"; no file was changed`},
		{"context not in file", good + "--- a/b.txt\n+++ b/b.txt\n@@ -5 +5 @@\n-zeta\n+Z\n",
			`hunk 1 (@@ -5 +5 @@) of b.txt does not apply: its first line "zeta" is not in the file (from line 1 on); no file was changed`},
		{"missing file", good + "--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-x\n+y\n",
			"the patch changes c.txt, which does not exist; no file was changed"},
		{"creates an existing file", good + "--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+x\n",
			"the patch creates b.txt, which already exists; no file was changed"},
		{"ambiguous without line numbers", "--- a/b.txt\n+++ b/b.txt\n@@\n-alpha\n+A\n",
			""},
		{"Codex format", "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n",
			`this is not a unified diff: use "--- a/path" and "+++ b/path" headers followed by @@ hunks`},
		{"junk inside a file section", good + "this line is not diff\n",
			`patch line 7 is not part of a hunk: "this line is not diff"; every hunk line starts with ' ', '-' or '+'`},
		{"no headers", "-two\n+2\n", `the patch has no file sections: expected "--- a/path" and "+++ b/path" lines followed by @@ hunks`},
		{"hunk before header", "@@ -1 +1 @@\n-a\n+b\n", `patch line 1: hunk "@@ -1 +1 @@" comes before any "--- a/path" / "+++ b/path" header`},
		{"deletion that keeps lines", "--- a/b.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-alpha\n",
			"the patch deletes b.txt but does not remove all of its lines; no file was changed"},
		{"no-op", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n one\n", "the patch changes nothing: every file would stay as it is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, "a.txt", "one\ntwo\n", "b.txt", "alpha\nbeta\nalpha\n")
			got := fails(t, env, ApplyPatch, patchArgs(tt.patch))
			if tt.want == "" {
				tt.want = "hunk 1 (@@) of b.txt does not apply: its lines occur 2 times and its header has no line number; add context; no file was changed"
			}
			if got != tt.want {
				t.Errorf("got:  %s\nwant: %s", got, tt.want)
			}
			if readBack(t, env, "a.txt") != "one\ntwo\n" || readBack(t, env, "b.txt") != "alpha\nbeta\nalpha\n" {
				t.Error("a failed patch changed a file")
			}
		})
	}
}

func TestApplyPatch_ConsentShowsResultingDiff(t *testing.T) {
	env := newEnv(t, "a.txt", "one\ntwo\n")
	c := byName(t, ApplyPatch).ConsentFor(tools.Call{Env: env,
		Args: json.RawMessage(patchArgs("--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-two\n+2\n--- /dev/null\n+++ b/z.txt\n@@ -0,0 +1 @@\n+z\n"))})
	want := "modify a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n" +
		"create z.txt (2 B)\n--- /dev/null\n+++ b/z.txt\n@@ -0,0 +1 @@\n+z\n"
	if c.Title != "apply_patch: a.txt, z.txt" || c.Detail != want {
		t.Errorf("got %q\n%s", c.Title, c.Detail)
	}
}

// TestApplyPatch_RoundTrip applies the diffs unifiedDiff writes.
func TestApplyPatch_RoundTrip(t *testing.T) {
	pairs := [][2]string{
		{"a\nb\nc\n", "a\nc\nd\n"},
		{"", "new\n"},
		{"x\ny", "x\ny\nz"},
		{strings.Repeat("l\n", 50), strings.Repeat("l\n", 20) + "mid\n" + strings.Repeat("l\n", 31)},
	}
	for _, p := range pairs {
		checkRoundTrip(t, p[0], p[1])
	}
}

func checkRoundTrip(t *testing.T, a, b string) {
	t.Helper()
	d := textdiff.Unified("a/f", "b/f", []byte(a), []byte(b))
	if d == "" {
		return
	}
	files, err := parsePatch(d)
	if err != nil {
		t.Fatalf("parse %q: %v", d, err)
	}
	out, err := applyHunks(splitText([]byte(a)), files[0].hunks, "f")
	if err != nil {
		t.Fatalf("apply %q to %q: %v", d, a, err)
	}
	if got := string(out.bytes()); got != b {
		t.Fatalf("diff %q applied to %q gives %q, want %q", d, a, got, b)
	}
}
