package search

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/tools"
)

// withEngine runs f with grep forced onto one engine: "go", or "rg" (the
// test is skipped when ripgrep is not installed).
func withEngine(t *testing.T, engine string, f func()) {
	t.Helper()
	saved := ripgrep
	defer func() { ripgrep = saved }()
	switch engine {
	case "go":
		ripgrep = func() string { return "" }
	case "rg":
		rg, err := exec.LookPath("rg")
		if err != nil {
			t.Skip("ripgrep is not installed")
		}
		ripgrep = func() string { return rg }
	}
	f()
}

var grepQueries = []string{
	`{"pattern":"needle"}`,
	`{"pattern":"needle","ignore_case":true}`,
	`{"pattern":"needle","files_only":true}`,
	`{"pattern":"needle","glob":"*.go"}`,
	`{"pattern":"needle","glob":"sub/**"}`,
	`{"pattern":"needle","path":"sub"}`,
	`{"pattern":"needle","path":"sub/deep/z.go","context":2}`,
	`{"pattern":"needle","context":1}`,
	`{"pattern":"^line [0-9]$","path":"sub"}`,
	`{"pattern":"crlf$"}`,
	`{"pattern":"needle$","path":"latin1.txt"}`,
	`{"pattern":"-x","path":"b.txt"}`,
	`{"pattern":"nothing matches this"}`,
}

// TestGrep_EnginesAgree runs every query on the same tree through ripgrep
// and through the Go engine and requires identical output.
func TestGrep_EnginesAgree(t *testing.T) {
	env := &tools.Env{Dir: sampleTree(t)}
	for _, q := range grepQueries {
		var viaRg, viaGo string
		withEngine(t, "rg", func() { viaRg = ok(t, env, Grep, q) })
		withEngine(t, "go", func() { viaGo = ok(t, env, Grep, q) })
		if viaRg != viaGo {
			t.Errorf("%s\nripgrep:\n%s\ngo:\n%s", q, viaRg, viaGo)
		}
	}
}

func TestGrep_Output(t *testing.T) {
	env := &tools.Env{Dir: sampleTree(t)}
	tests := []struct{ args, want string }{
		{`{"pattern":"needle"}`, `.github/ci.yml:1:needle hidden
a.go:3:// needle one
crlf.txt:1:needle crlf
docs/a/b/c.txt:1:needle doc
keep.log:1:needle kept
latin1.txt:1:caf` + "\xe9" + ` needle
long.txt:1:` + strings.Repeat("x", 500) + ` … [107 more bytes]
src/build/x.txt:1:needle in nested build
sub/README.md:1:needle readme
sub/deep/z.go:3:needle deep
sub/deep/z.go:8:needle again
`},
		{`{"pattern":"needle","path":"sub/deep/z.go","context":1}`, `sub/deep/z.go-2-line 2
sub/deep/z.go:3:needle deep
sub/deep/z.go-4-line 4
--
sub/deep/z.go-7-line 7
sub/deep/z.go:8:needle again
`},
		{`{"pattern":"NEEDLE","files_only":true,"ignore_case":true,"glob":"*.go"}`, "Upper/B.go\na.go\nsub/deep/z.go\n"},
		{`{"pattern":"zzz"}`, `no matches for "zzz" in .`},
	}
	for _, tt := range tests {
		withEngine(t, "go", func() {
			if got := ok(t, env, Grep, tt.args); got != tt.want {
				t.Errorf("%s\n got: %q\nwant: %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestGrep_Refusals(t *testing.T) {
	env := &tools.Env{Dir: sampleTree(t)}
	tests := []struct{ args, want string }{
		{`{"pattern":"("}`, "pattern is not a valid regular expression: error parsing regexp: missing closing ): `(`"},
		{`{"pattern":"x","path":"missing"}`, "missing does not exist"},
		{`{"pattern":"x","path":"bin.dat"}`, "bin.dat is a binary file; grep searches text"},
		{`{"pattern":"x","glob":"!*.go"}`, `glob "!*.go" is not usable (a blank, comment or negated pattern)`},
		{`{"pattern":"x","context":11}`, `grep: argument "context": must be at most 10, got 11`},
		{`{"pattern":""}`, `grep: argument "pattern": must be at least 1 characters long, got 0`},
	}
	for _, tt := range tests {
		if got := fails(t, env, Grep, tt.args); got != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.args, got, tt.want)
		}
	}
}

// TestGrep_OutputCap floods both engines and checks the same cut.
func TestGrep_OutputCap(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("hit\n", 40)
	}
	env := &tools.Env{Dir: tree(t, files)}
	var outputs []string
	for _, engine := range []string{"go", "rg"} {
		withEngine(t, engine, func() {
			got := ok(t, env, Grep, `{"pattern":"hit"}`)
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			if len(lines) != grepLineCap+1 || !strings.HasPrefix(lines[grepLineCap], "[stopped at the output cap") {
				t.Errorf("%s: %d lines, last %q", engine, len(lines), lines[len(lines)-1])
			}
			outputs = append(outputs, got)
		})
	}
	if len(outputs) == 2 && outputs[0] != outputs[1] {
		t.Error("engines cut the output differently")
	}
}

// TestGrep_TwoGiBSparseFileIsBinary: its hole is NUL bytes, so both
// engines skip it after the first read.
func TestGrep_TwoGiBSparseFileIsBinary(t *testing.T) {
	dir := tree(t, map[string]string{"small.txt": "needle\n"})
	f, err := os.Create(filepath.Join(dir, "huge.img"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("needle\n")
	if err := f.Truncate(2 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	env := &tools.Env{Dir: dir}
	for _, engine := range []string{"go", "rg"} {
		withEngine(t, engine, func() {
			if got := ok(t, env, Grep, `{"pattern":"needle"}`); got != "small.txt:1:needle\n" {
				t.Errorf("%s: %q", engine, got)
			}
		})
	}
}
