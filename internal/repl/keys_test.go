package repl

import (
	"testing"
)

// Keys as terminals send them, including sequences split across reads and
// a bracketed paste of several lines, which is one key.
func TestDecodeKey(t *testing.T) {
	tests := []struct {
		in    string
		final bool
		kind  keyKind
		n     int
		text  string
	}{
		{"a", false, keyRune, 1, ""},
		{"é"[:1], false, 0, 0, ""}, // half a character: wait for the rest
		{"\r", false, keyEnter, 1, ""},
		{"\n", false, keyEnter, 1, ""},       // cooked type-ahead's Enter
		{"\x1b\n", false, keyNewline, 2, ""}, // Alt-Enter typed ahead
		{"\x1b\r", false, keyNewline, 2, ""}, // Alt-Enter
		{"\x1b", false, 0, 0, ""},            // maybe the start of a sequence
		{"\x1b", true, keyEscape, 1, ""},     // nothing followed: Escape
		{"\x1b[", false, 0, 0, ""},
		{"\x1b[A", false, keyUp, 3, ""},
		{"\x1b[3~x", false, keyDelete, 4, ""},
		{"\x1b[1;5C", false, keyIgnored, 6, ""},
		{"\x03", false, keyInterrupt, 1, ""},
		{"\x1b[200~one\r\ntwo\rthree\nfour\x1b[31m!\x1b[201~rest", false, keyPaste, 37, "one\ntwo\nthree\nfour[31m!"},
		{"\x1b[200~unfinished", false, 0, 0, ""},
	}
	for _, tt := range tests {
		k, n := decodeKey([]byte(tt.in), tt.final)
		if n != tt.n || (n > 0 && (k.kind != tt.kind || k.text != tt.text)) {
			t.Errorf("decodeKey(%q, %v) = %+v, %d; want kind %d, %d, %q", tt.in, tt.final, k, n, tt.kind, tt.n, tt.text)
		}
	}
}

// The buffer edits across lines, and its layout cuts rows at the width
// and knows where the cursor is.
func TestBuffer_EditAndLayout(t *testing.T) {
	b := newBuffer("")
	b.insert("hello")
	b.newline()
	b.insert("wor")
	b.insert("ld\nthird")
	if got := b.String(); got != "hello\nworld\nthird" {
		t.Fatalf("buffer %q", got)
	}
	b.row, b.col = 1, 0
	b.backspace()
	if got := b.String(); got != "helloworld\nthird" || b.row != 0 || b.col != 5 {
		t.Fatalf("after joining lines: %q at %d:%d", got, b.row, b.col)
	}
	rows, crow, ccol := b.layout("> ", 6)
	want := []string{"> hell", "oworld", "  thir", "d"}
	if len(rows) != len(want) || crow != 1 || ccol != 1 {
		t.Fatalf("layout %q, cursor %d:%d", rows, crow, ccol)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Fatalf("layout %q, want %q", rows, want)
		}
	}
}
