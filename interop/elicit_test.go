package interop

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// Elicitation against server-everything 2026.8.31, whose
// trigger-elicitation-request and trigger-url-elicitation tools exist only
// for a client that declares elicitation, through the real tai binary:
// with nobody at a terminal the form is declined and -32042 ends the call;
// at a terminal (a pseudo-terminal) the form is filled with its defaults
// and accepted, and the URL prerequisite is opened, then the call sent
// again and its own URL opened.

// addEverything registers server-everything over stdio in a new home.
func addEverything(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	out := runTai(t, home, "", "mcp", "add", "--name", "everything", "--yes", "--enable", "--", "node", nodeServer(t, "server-everything"), "stdio")
	for _, tool := range []string{"trigger-elicitation-request", "trigger-url-elicitation"} {
		if !strings.Contains(out, tool) {
			t.Fatalf("server-everything did not list %s to a client declaring elicitation:\n%s", tool, out)
		}
	}
	return home
}

func TestElicitation_NobodyThere(t *testing.T) {
	home := addEverything(t)
	cmd := exec.Command(taiBinary(t), "mcp", "call", "everything", "trigger-elicitation-request", "{}", "--yes")
	cmd.Env = append(os.Environ(), "TAI_HOME="+home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tai mcp call: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "User declined to provide the requested information") {
		t.Errorf("the server did not get a decline:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "tai declined MCP server everything's form: nobody is at a terminal to answer it") {
		t.Errorf("stderr does not say so:\n%s", stderr.String())
	}

	cmd = exec.Command(taiBinary(t), "mcp", "call", "everything", "trigger-url-elicitation", `{"url":"https://example.com/connect","errorPath":true}`, "--yes")
	cmd.Env = append(os.Environ(), "TAI_HOME="+home)
	out, err := cmd.CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "mcp error -32042") || !strings.Contains(string(out), "you did not open the URL") {
		t.Fatalf("a -32042 with nobody there: exit %d\n%s", code, out)
	}
}

func TestElicitation_AtATerminal(t *testing.T) {
	home := addEverything(t)
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" >>"+opened+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}

	t.Run("form", func(t *testing.T) {
		tm := startPty(t, home, nil, "mcp", "call", "everything", "trigger-elicitation-request", "{}", "--yes")
		tm.wait(`MCP server everything asks you to fill in a form (this is the server speaking, not tai)`)
		tm.wait(`1/13 String (name): text, required`)
		tm.send("Ada Lovelace\r")
		// Every other field: Enter keeps its default or leaves it empty.
		for _, label := range []string{"2/13 Boolean", "3/13 String with default", "4/13", "5/13", "6/13", "7/13 Integer", "8/13", "9/13", "10/13", "11/13", "12/13", "13/13"} {
			tm.wait(label)
			tm.send("\r")
		}
		tm.wait("MCP server everything would get:")
		tm.send("a")
		tm.exit(0)
		for _, want := range []string{"User provided the requested information", "- Name: Ada Lovelace", "- Favorite Integer: 42", "- Favorite Number: 3.14", `"legacyTitledEnum": "pet-1"`} {
			tm.wait(want)
		}
	})

	t.Run("url after -32042", func(t *testing.T) {
		tm := startPty(t, home, []string{"BROWSER=" + browser}, "mcp", "call", "everything", "trigger-url-elicitation", `{"url":"https://example.com/connect","errorPath":true}`, "--yes")
		// The prerequisite the error names.
		tm.wait("host: MODELCONTEXTPROTOCOL.IO")
		tm.send("o")
		tm.wait("finish in the browser")
		tm.send("\r") // server-everything sends no completion: the person says so
		// The call sent again asks for its own URL.
		tm.wait("host: EXAMPLE.COM")
		tm.send("o")
		tm.exit(0)
		tm.wait("User completed the URL elicitation flow")
		b, _ := os.ReadFile(opened)
		if got := string(b); got != "https://modelcontextprotocol.io\nhttps://example.com/connect\n" {
			t.Fatalf("the browser opened %q", got)
		}
	})
}

// ptyRun is tai under a pseudo-terminal, its output with escape sequences
// left out.
type ptyRun struct {
	t       *testing.T
	f       *os.File
	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{}
	done    chan struct{}
	err     error
}

func startPty(t *testing.T, home string, env []string, args ...string) *ptyRun {
	t.Helper()
	cmd := exec.Command(taiBinary(t), args...)
	cmd.Env = append(append(os.Environ(), "TAI_HOME="+home, "TERM=xterm", "NO_COLOR=1"), env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, f: f, changed: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			select {
			case r.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		r.err = cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			cmd.Process.Kill()
			<-r.done
		}
		f.Close()
		if t.Failed() {
			t.Logf("output:\n%s", r.text())
		}
	})
	return r
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\r`)

func (r *ptyRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return escapes.ReplaceAllString(r.out.String(), "")
}

// wait waits until the output holds s.
func (r *ptyRun) wait(s string) {
	r.t.Helper()
	deadline := time.After(60 * time.Second)
	for !strings.Contains(r.text(), s) {
		select {
		case <-r.changed:
		case <-deadline:
			r.t.Fatalf("the output never showed %q", s)
		}
	}
}

func (r *ptyRun) send(s string) {
	r.t.Helper()
	if _, err := r.f.WriteString(s); err != nil {
		r.t.Fatal(err)
	}
}

// exit waits for tai to end with code.
func (r *ptyRun) exit(code int) {
	r.t.Helper()
	select {
	case <-r.done:
	case <-time.After(60 * time.Second):
		r.t.Fatal("tai did not exit")
	}
	if got := exitCode(r.err); got != code {
		r.t.Fatalf("exit code %d, want %d", got, code)
	}
}

// server-everything's simulate-research-query, which must run as a task,
// through the real binary at a terminal: the task's statuses on the live
// line, its ambiguous query's question answered in the form inside the
// task, the report printed; and Ctrl-C during the task cancels it.
func TestEverything_TaskAtATerminal(t *testing.T) {
	home := addEverything(t)
	t.Run("question inside the task", func(t *testing.T) {
		tm := startPty(t, home, nil, "mcp", "call", "everything", "simulate-research-query", `{"topic":"python","ambiguous":true}`, "--yes")
		tm.wait("everything: task ")
		tm.wait(`MCP server everything asks you to fill in a form (this is the server speaking, not tai)`)
		tm.wait("1/1 ")
		tm.send("1\r")
		tm.wait("MCP server everything would get:")
		tm.send("a")
		tm.exit(0)
		tm.wait("python")
	})
	t.Run("Ctrl-C cancels the task", func(t *testing.T) {
		tm := startPty(t, home, nil, "mcp", "call", "everything", "simulate-research-query", `{"topic":"go"}`, "--yes")
		tm.wait("everything: task ")
		tm.send("\x03")
		tm.exit(130)
		tm.wait("tai: stopped (Ctrl-C or SIGTERM); what was running was cancelled")
	})
}
