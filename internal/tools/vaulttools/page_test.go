package vaulttools

import (
	"strings"
	"testing"
)

// pageCase is a page asked for, and the text and label it should have.
type pageCase struct {
	offset, limit int
	text, label   string
}

// checkPages fails t for each case whose page of body, as cut (named
// name) cuts it, differs.
func checkPages(t *testing.T, name string, cut func(body string, offset, limit int) (page, error), body string, cases []pageCase) {
	t.Helper()
	for _, tt := range cases {
		p, err := cut(body, tt.offset, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if p.text != tt.text || p.label() != tt.label {
			t.Errorf("%s(%d, %d) = %q %q; want %q %q", name, tt.offset, tt.limit, p.text, p.label(), tt.text, tt.label)
		}
	}
}

func TestByteRange(t *testing.T) {
	body := "abcé€xyz" // é is 2 bytes (3–4), € is 3 (5–7)
	checkPages(t, "byteRange", byteRange, body, []pageCase{
		{0, 100, body, "bytes 1–11 of 11 (all of it)"},
		{0, 3, "abc", "bytes 1–3 of 11; continue with offset 3"},
		{0, 4, "abc", "bytes 1–3 of 11; continue with offset 3"}, // would split é
		{4, 2, "é", "bytes 4–5 of 11; continue with offset 5"},   // starts inside é
		{5, 1, "€", "bytes 6–8 of 11; continue with offset 8"},   // one byte of € widens to all of it
		{8, 100, "xyz", "bytes 9–11 of 11 (the end)"},
	})
	if _, err := byteRange(body, 11, 1); err == nil || err.Error() != "offset 11 is past the end (11 bytes)" {
		t.Errorf("past the end: %v", err)
	}
	big := strings.Repeat("x", pageMax+10)
	if p, _ := byteRange(big, 0, pageMax*2); len(p.text) != pageMax || p.next != pageMax {
		t.Errorf("page not capped: %d bytes, next %d", len(p.text), p.next)
	}
}

func TestLineRange(t *testing.T) {
	body := "one\ntwo\nthree\nfour" // no final newline: still 4 lines
	checkPages(t, "lineRange", lineRange, body, []pageCase{
		{0, 10, body, "lines 1–4 of 4 (all of it)"},
		{0, 2, "one\ntwo\n", "lines 1–2 of 4; continue with offset 2"},
		{2, 1, "three\n", "lines 3–3 of 4; continue with offset 3"},
		{3, 5, "four", "lines 4–4 of 4 (the end)"},
	})
	if p, _ := lineRange("a\nb\n", 0, 10); p.total != 2 || p.text != "a\nb\n" {
		t.Errorf("final newline counted as a line: %+v", p)
	}
	if _, err := lineRange(body, 4, 1); err == nil || err.Error() != "offset 4 is past the end (4 lines)" {
		t.Errorf("past the end: %v", err)
	}

	long := strings.Repeat("x", pageMax)
	huge := "short\n" + long + "\n" + "after\n"
	p, err := lineRange(huge, 0, 10)
	if err != nil || p.text != "short\n" || p.next != 1 {
		t.Errorf("page should stop before the long line: %q %v", p.label(), err)
	}
	_, err = lineRange(huge, 1, 10)
	if want := `line 2 alone is 65537 bytes, over the 64 KiB page; read it with unit "bytes" and offset 6`; err == nil || err.Error() != want {
		t.Errorf("long line: %v\nwant %s", err, want)
	}
}

func TestLowerASCII_KeepsByteOffsets(t *testing.T) {
	in := "ÉTÉ Déjà VU"
	got := lowerASCII(in)
	if got != "ÉtÉ déjà vu" || len(got) != len(in) {
		t.Errorf("lowerASCII(%q) = %q", in, got)
	}
}
