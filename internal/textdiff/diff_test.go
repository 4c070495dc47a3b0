package textdiff

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one change", "a\nb\nc\n", "a\nB\nc\n", "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"new file", "", "a\nb\n", "--- x\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"deleted file", "a\n", "", "--- x\n+++ y\n@@ -1 +0,0 @@\n-a\n"},
		{"no final newline", "a\nb", "a\nc", "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"newline added", "a", "a\n", "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"--- x\n+++ y\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"},
		{"close changes merge", "1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n",
			"--- x\n+++ y\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("x", "y", []byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestMyers_MinimalAndFallback(t *testing.T) {
	a := strings.Split("a b c a b b a", " ")
	b := strings.Split("c b a b a c", " ")
	edits := 0
	for _, e := range myers(a, b) {
		if e.op != ' ' {
			edits++
		}
	}
	if edits != 5 { // the classic example: D = 5
		t.Errorf("got %d edits, want 5", edits)
	}
	var big1, big2 []string
	for i := 0; i < maxEdits+10; i++ {
		big1 = append(big1, "x")
		big2 = append(big2, "y")
	}
	if got := len(myers(big1, big2)); got != 2*len(big1) {
		t.Errorf("fallback script has %d edits, want %d", got, 2*len(big1))
	}
}
