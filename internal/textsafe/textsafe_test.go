package textsafe

import (
	"strings"
	"testing"
	"unicode"
)

func TestClean(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text\nnext\tcol", "plain text\nnext\tcol"},
		{"red \x1b[31mALERT\x1b[0m done", "red ALERT done"},
		{"title \x1b]0;pwned\x07 after", "title  after"},
		{"link \x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "link click"},
		{"bell\x07 and back\bspace", "bell and backspace"},
		{"over\rwrite", "overwrite"},
		{"c1 \u009b31m csi", "c1  csi"},
		{"bidi \u202eevil\u202c", "bidi evil"},
		{"keep ünïcode ✓", "keep ünïcode ✓"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"cursor \x1b[2J\x1b[H home", "cursor  home"},
		{"trailing esc \x1b", "trailing esc "},
	}
	for _, c := range cases {
		if got := Clean(c.in); got != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\nb\tc\x1b[1m"); got != "a b c" {
		t.Fatalf("Line = %q", got)
	}
}

func FuzzClean(f *testing.F) {
	f.Add("x\x1b[31my")
	f.Add("\x1b]0;t\x07")
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		for _, r := range out {
			if r == 0x1b || (unicode.IsControl(r) && r != '\n' && r != '\t') {
				t.Fatalf("Clean(%q) kept control %U", s, r)
			}
		}
		if Clean(out) != out {
			t.Fatalf("Clean not idempotent on %q", s)
		}
		if strings.Contains(out, "\x1b") {
			t.Fatal("escape survived")
		}
	})
}

func TestHead(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"héllo", 2, "h"}, // é is two bytes: its first alone would be half a character
		{"héllo", 3, "hé"},
		{"日本", 4, "日"},
		{"日本", 2, ""},
		{"abc", 0, ""},
		{"abc", -1, ""},
	} {
		if got := Head(tc.s, tc.n); got != tc.want {
			t.Errorf("Head(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if got := string(Head([]byte(tc.s), tc.n)); got != tc.want {
			t.Errorf("Head([]byte(%q), %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
