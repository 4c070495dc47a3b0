package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	env := newEnv(t, "five.txt", "one\ntwo\nthree\nfour\nfive\n", "crlf.txt", "a\r\nb\r\n", "nonl.txt", "x\ny", "empty.txt", "", "long.txt", strings.Repeat("é", 1500)+"\nnext\n")
	tests := []struct{ name, args, want string }{
		{"whole file", `{"path":"five.txt"}`, "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive\n"},
		{"range in the middle", `{"path":"five.txt","offset":2,"limit":2}`,
			"     2\ttwo\n     3\tthree\n[showing lines 2-3; the file (24 B) continues: read on with offset=4]\n"},
		{"tail", `{"path":"five.txt","offset":4}`, "     4\tfour\n     5\tfive\n[end of file: lines 4-5 of 5]\n"},
		{"absolute path", fmt.Sprintf(`{"path":%q,"limit":1}`, filepath.Join(env.Dir, "five.txt")),
			"     1\tone\n[showing lines 1-1; the file (24 B) continues: read on with offset=2]\n"},
		{"CRLF shown without CR", `{"path":"crlf.txt"}`, "     1\ta\n     2\tb\n"},
		{"no final newline", `{"path":"nonl.txt"}`, "     1\tx\n     2\ty\n"},
		{"empty", `{"path":"empty.txt"}`, "(empty file)"},
		{"long line cut on a character boundary", `{"path":"long.txt"}`,
			"     1\t" + strings.Repeat("é", 1000) + " … [line cut: 1000 more bytes]\n     2\tnext\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ok(t, env, ReadFile, tt.args); got != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestReadFile_Refusals(t *testing.T) {
	env := newEnv(t, "main.go", "package main\n", "img.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "short.txt", "a\nb\n")
	os.Mkdir(filepath.Join(env.Dir, "sub"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(env.Dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkRefusals(t, env, ReadFile, []refusal{
		{`{"path":"mian.go"}`, "mian.go does not exist; did you mean main.go?"},
		{`{"path":"nowhere/x.go"}`, "nowhere/x.go does not exist"},
		{`{"path":"sub"}`, "sub is a directory, not a file; use list_dir to see inside it"},
		{`{"path":"img.png"}`, "img.png is a binary file (16 B); read_file shows text only"},
		{`{"path":"short.txt","offset":9}`, "offset 9 is past the end of short.txt, which has 2 lines"},
		{`{"path":"pipe"}`, "pipe is not a regular file (p---------)"},
	})
}

func TestReadFile_OutputCap(t *testing.T) {
	env := newEnv(t)
	line := strings.Repeat("x", 99) + "\n" // 100 bytes a line
	writeFile(t, env, "big.txt", strings.Repeat(line, 1500))
	got := ok(t, env, ReadFile, `{"path":"big.txt"}`)
	if len(got) > readCap+200 {
		t.Errorf("result is %d bytes, over the cap", len(got))
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	last, note := lines[len(lines)-2], lines[len(lines)-1]
	n := len(lines) - 1
	wantNote := fmt.Sprintf("[stopped at the 64.0 KiB output cap after line %d; the file is 146.5 KiB: read on with offset=%d]", n, n+1)
	if note != wantNote || !strings.HasPrefix(last, fmt.Sprintf("%6d\t", n)) {
		t.Errorf("got last line %q and note %q, want note %q", last, note, wantNote)
	}
}

// TestReadFile_TwoGiBSparseFile reads the head of a 2 GiB file and past
// its text into its hole: neither reads the file whole.
func TestReadFile_TwoGiBSparseFile(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Dir, "huge.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(f, "log line %d\n", i)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()

	got := ok(t, env, ReadFile, `{"path":"huge.log"}`)
	if !strings.HasSuffix(got, "  2000\tlog line 2000\n[showing lines 1-2000; the file (2.0 GiB) continues: read on with offset=2001]\n") {
		t.Errorf("head read ends %q", got[len(got)-120:])
	}
	got = ok(t, env, ReadFile, `{"path":"huge.log","offset":2999}`)
	want := "  2999\tlog line 2999\n  3000\tlog line 3000\n[stopped at line 3001: binary data (a NUL byte) follows]\n"
	if got != want {
		t.Errorf("read into the hole:\n got %q\nwant %q", got, want)
	}
}

func TestReadFile_OverlongLineEndsTheRead(t *testing.T) {
	env := newEnv(t, "min.js", "first\n"+strings.Repeat("y", 2*lineSkipCap)+"\nlast\n")
	got := ok(t, env, ReadFile, `{"path":"min.js"}`)
	want := "     1\tfirst\n[stopped at line 2: it is longer than 1 MiB; use grep or shell to look into it]\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
