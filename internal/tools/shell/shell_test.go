package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
)

var call = tooltest.Run

func callCtx(t *testing.T, ctx context.Context, tool *tools.Tool, env *tools.Env, args string) tools.Result {
	t.Helper()
	res, err := tools.Invoke(ctx, tool, tools.Call{Args: json.RawMessage(args), Env: env}, tools.Via{})
	if err != nil {
		t.Fatalf("%s(%s): error %v", tool.Name, args, err)
	}
	return res.Result
}

func shellArgsJSON(cmd string, extra string) string {
	b, _ := json.Marshal(cmd)
	return `{"command":` + string(b) + extra + `}`
}

func TestShell_OutputAndExitCode(t *testing.T) {
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON("echo out; echo err >&2; exit 3", ""))
	if res.IsError {
		t.Fatalf("non-zero exit reported as tool error: %q", res.Text)
	}
	if want := "out\nerr\n[exit code 3]"; res.Text != want {
		t.Fatalf("got %q, want %q", res.Text, want)
	}
}

func TestShell_NoOutput(t *testing.T) {
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON("true", ""))
	if res.Text != "(no output)\n[exit code 0]" {
		t.Fatalf("got %q", res.Text)
	}
}

func TestShell_RunsInEnvDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "marker"), nil, 0o644)
	res := call(t, Shell(), &tools.Env{Dir: dir}, shellArgsJSON("ls", ""))
	if res.Text != "marker\n[exit code 0]" {
		t.Fatalf("got %q", res.Text)
	}
}

func TestShell_SecretEnvironmentIsNotInherited(t *testing.T) {
	t.Setenv("TAI_TEST_KEY", "hunter2-secret")
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("TAI_TEST_PLAIN_NEIGHBOUR", "x") // TAI_ is secret by rule
	t.Setenv("SHELLTEST_VISIBLE", "visible")
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON(`echo "[$TAI_TEST_KEY][$OPENAI_API_KEY][$SHELLTEST_VISIBLE]"`, ""))
	if !strings.HasPrefix(res.Text, "[][][visible]\n") {
		t.Fatalf("got %q", res.Text)
	}
}

func TestShell_CommandNotFoundIsAnExitCode(t *testing.T) {
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON("no-such-command-xyz", ""))
	if res.IsError || !strings.Contains(res.Text, "not found") || !strings.HasSuffix(res.Text, "[exit code 127]") {
		t.Fatalf("got %+v", res)
	}
}

func TestShell_StreamsCleanProgress(t *testing.T) {
	var progress bytes.Buffer
	res := call(t, Shell(), &tools.Env{Progress: &progress}, shellArgsJSON(`printf '\033[31mred\033[0m\n'; echo two`, ""))
	if progress.String() != "red\ntwo\n" {
		t.Fatalf("progress %q", progress.String())
	}
	if res.Text != "red\ntwo\n[exit code 0]" {
		t.Fatalf("result %q", res.Text)
	}
}

func TestShell_FloodIsCapped(t *testing.T) {
	var progress bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := call(t, Shell(), &tools.Env{Progress: &progress}, shellArgsJSON("yes | head -c 100000000; echo; echo the end", ""))
	runtime.ReadMemStats(&after)

	if res.IsError || !strings.HasSuffix(res.Text, "the end\n[exit code 0]") {
		t.Fatalf("tail of result: %q", res.Text[max(0, len(res.Text)-100):])
	}
	if len(res.Text) > headCap+tailCap+200 {
		t.Errorf("result is %d bytes, want at most about %d", len(res.Text), headCap+tailCap)
	}
	if !strings.HasPrefix(res.Text, "y\ny\n") || !strings.Contains(res.Text, " bytes elided …]\n") {
		t.Errorf("no head or no elision marker: %q", res.Text[:100])
	}
	if progress.Len() > progressCap+200 || !strings.Contains(progress.String(), "live output stops here") {
		t.Errorf("progress got %d bytes, want at most %d and a notice", progress.Len(), progressCap)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MB for 100 MB of output", alloc>>20)
	}
}

func TestShell_BadArguments(t *testing.T) {
	for _, tt := range []struct{ args, want string }{
		{`{"command": 5}`, `shell: argument "command": expected string, got number`},
		{`{"command": "ls", "cwd": "/"}`, `shell: unknown argument "cwd"`},
		{`{"command": ""}`, `argument "command"`},
		{`{"command": "  "}`, "shell: command is empty"},
		{`{"command": "ls", "timeout": 601}`, `argument "timeout": must be at most 600`},
		{`{"command": "ls", "timeout": 0}`, `argument "timeout": must be at least 1`},
		{`{}`, `"command"`},
		{`not json`, "not valid JSON"},
	} {
		res := call(t, Shell(), &tools.Env{}, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) {
			t.Errorf("%s: got %+v, want an error containing %q", tt.args, res, tt.want)
		}
	}
}

func TestShell_MissingDirectory(t *testing.T) {
	res := call(t, Shell(), &tools.Env{Dir: "/no/such/dir"}, shellArgsJSON("ls", ""))
	if !res.IsError || res.Text != "shell: working directory /no/such/dir is not a directory" {
		t.Fatalf("got %+v", res)
	}
}

func TestShell_Safe(t *testing.T) {
	tool := Shell()
	for args, want := range map[string]bool{
		`{"command": "ls -la"}`:                     true,
		`{"command": "git status && git diff"}`:     true,
		`{"command": "rm -rf build"}`:               false,
		`{"command": "ls", "background": true}`:     false,
		`{"command": "cat a > b"}`:                  false,
		`{"command": "ls", "unknown": 1}`:           false,
		`{"command": "ls", "timeout": 5}`:           true,
		`{"command": "tail -f log", "timeout": 10}`: true,
	} {
		if got := tool.IsSafe(tools.Call{Args: json.RawMessage(args)}); got != want {
			t.Errorf("IsSafe(%s) = %v, want %v", args, got, want)
		}
	}
}

func TestShell_ConsentShowsCommandAndWhyItAsks(t *testing.T) {
	c := Shell().ConsentFor(tools.Call{Args: json.RawMessage(`{"command": "make build\nrm -rf /tmp/x", "background": true}`)})
	if c.Title != "shell: make build …" {
		t.Errorf("title %q", c.Title)
	}
	for _, want := range []string{"make build\nrm -rf /tmp/x", "background job", "Not read-only: make is not on the read-only list"} {
		if !strings.Contains(c.Detail, want) {
			t.Errorf("detail %q lacks %q", c.Detail, want)
		}
	}
}

// signalWriter closes ready at the first line end written to it.
type signalWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	once  sync.Once
	ready chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if bytes.IndexByte(w.buf.Bytes(), '\n') >= 0 {
		w.once.Do(func() { close(w.ready) })
	}
	return len(p), nil
}
