package clip

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestBuffer_KeepsEverythingUnderCap(t *testing.T) {
	b := New(10, 10)
	fmt.Fprint(b, "hello\nworld\n")
	if got := b.String(); got != "hello\nworld\n" {
		t.Fatalf("String() = %q", got)
	}
}

func TestBuffer_ElidesTheMiddle(t *testing.T) {
	b := New(16, 16)
	for i := range 1000 {
		fmt.Fprintf(b, "line %04d\n", i) // 10 bytes a line
	}
	got := b.String()
	// Head cut at the line end inside 16 bytes, tail starts after the first
	// line end inside its 16 bytes.
	want := "line 0000\n[… 9,980 bytes elided …]\nline 0999\n"
	if got != want {
		t.Fatalf("String() =\n%s\nwant\n%s", got, want)
	}
	if b.Total() != 10000 {
		t.Fatalf("Total() = %d", b.Total())
	}
}

func TestBuffer_HeadOnly(t *testing.T) {
	b := New(4, 0)
	io.WriteString(b, "abcdefgh")
	if got, want := b.String(), "abcd\n[… 4 bytes elided …]\n"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestBuffer_TailAcrossManySmallWrites(t *testing.T) {
	b := New(0, 5)
	for _, s := range []string{"ab", "cd", "ef", "g", "hij", "k"} {
		io.WriteString(b, s)
	}
	// No line ends: the kept tail is the last five bytes.
	if got, want := b.String(), "[… 6 bytes elided …]\nghijk"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestBuffer_NeverSplitsARune(t *testing.T) {
	b := New(4, 4)
	io.WriteString(b, strings.Repeat("é", 100)) // 2 bytes each
	got := b.String()
	if strings.ContainsRune(got, '\uFFFD') {
		t.Fatalf("split rune in %q", got)
	}
	if !strings.HasPrefix(got, "éé\n[… 192 bytes elided …]\néé") {
		t.Fatalf("String() = %q", got)
	}
}

func TestBuffer_BoundedMemoryForLargeWrites(t *testing.T) {
	b := New(1<<10, 1<<10)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for range 100 {
		b.Write(chunk)
	}
	if cap(b.head) > 1<<10 || cap(b.tail) > 2<<10 {
		t.Fatalf("kept %d+%d bytes of capacity", cap(b.head), cap(b.tail))
	}
	if !strings.Contains(b.String(), "[… 6,551,552 bytes elided …]") {
		t.Fatalf("wrong elision count in %q", b.String()[1000:1100])
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n", "plain text\n"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"a\x1b(Bb", "ab"},
		{"10%\r20%\r30%\n", "10%\n20%\n30%\n"},
		{"dos\r\nline\r\n", "dos\nline\n"},
		{"bell\x07 nul\x00 del\x7f", "bell nul del"},
		{"c1 \u009b31mcsi", "c1 csi"},
		{"tab\tkept", "tab\tkept"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"cut \xc3", "cut \uFFFD"},
		{"ünïcödé ✓", "ünïcödé ✓"},
	}
	for _, tt := range tests {
		if got := Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanWriter_SequencesSplitAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	w := CleanWriter(&out)
	in := "a\x1b[3" + "1mb é\r" + "\nc"
	for i := range len(in) {
		w.Write([]byte{in[i]})
	}
	if got := out.String(); got != "ab é\nc" {
		t.Fatalf("got %q", got)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 104857600: "104,857,600", -1234: "-1,234"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBuffer_SkippedCountsAsElided(t *testing.T) {
	b := New(0, 8)
	b.Skipped(100)
	io.WriteString(b, "last\n")
	if got, want := b.String(), "[… 100 bytes elided …]\nlast\n"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestBuffer_TailOnALineStartIsKeptWhole(t *testing.T) {
	for _, chunk := range []int{1, 3, 10, 30} {
		b := New(0, 10)
		in := "line 0000\nline 0001\nline 0002\n"
		for i := 0; i < len(in); i += chunk {
			io.WriteString(b, in[i:min(i+chunk, len(in))])
		}
		if got, want := b.String(), "[… 20 bytes elided …]\nline 0002\n"; got != want {
			t.Errorf("chunks of %d: String() = %q, want %q", chunk, got, want)
		}
	}
}
