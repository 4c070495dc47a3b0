package interop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"tai/internal/llm/llmtest"
)

// server-everything's trigger-sampling-request through the real tai
// binary, on the fake model (cmd/fakellm): the tool is listed because tai
// declares sampling; with nobody at a terminal the request is refused in
// one line; at a terminal the person approves it and sends the reply; with
// the profile's sampling_auto, --yes answers it unasked. Each time the
// server's request reaches the model clamped to MCP_SAMPLING_MAX_TOKENS,
// with no tools.
func TestEverything_SamplingThroughTai(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	paste := fmt.Sprintf(`{"mcpServers":{"everything":{"command":"node","args":[%q,"stdio"]}}}`, nodeServer(t, "server-everything"))
	runTai(t, home, paste, "mcp", "add", "-", "--yes", "--enable")
	if out := runTai(t, home, "", "mcp", "tools", "everything"); !strings.Contains(out, "trigger-sampling-request") {
		t.Fatalf("server-everything did not list trigger-sampling-request to a client declaring sampling:\n%s", out)
	}
	log := filepath.Join(t.TempDir(), "requests.jsonl")
	model := startFakeLLMLogged(t, echoModel, log)
	env := append(os.Environ(), "TAI_HOME="+home, "TAI_BASE_URL="+model+"/v1", "TAI_MODEL=openai:fake", "OPENAI_API_KEY=sk-fake")
	args := []string{"mcp", "call", "--yes", "everything", "trigger-sampling-request", `{"prompt":"what is 2+2?","maxTokens":1000000}`}

	t.Run("nobody there", func(t *testing.T) {
		cmd := exec.Command(taiBinary(t), args...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &stdout, &stderr
		err := cmd.Run()
		var refusals []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.Contains(l, "sampling request") {
				refusals = append(refusals, l)
			}
		}
		if code := exitCode(err); code != 1 || !strings.Contains(stdout.String(), "nobody is at tai's terminal") || len(refusals) != 1 ||
			!strings.HasPrefix(refusals[0], "tai: refused a sampling request of MCP server everything") {
			t.Errorf("exit %d; want 1 with the refusal as the tool's error and one line on stderr:\nstdout %s\nstderr %s", code, stdout.String(), stderr.String())
		}
		if n := len(modelRequests(t, log)); n != 0 {
			t.Errorf("the model got %d requests", n)
		}
	})

	t.Run("approved at a terminal", func(t *testing.T) {
		cmd := exec.Command(taiBinary(t), args...)
		cmd.Env = append(env, "TERM=xterm")
		term := startPTY(t, cmd)
		term.waitFor(t, "sampling request from MCP server everything")
		// The screen arrives in pieces: each line is waited for (the
		// first check after the title alone raced the rest of it).
		for _, want := range []string{"│ You are a helpful test server.", "│ Resource trigger-sampling-request context: what is 2+2?",
			"asked 1000000, clamped to MCP_SAMPLING_MAX_TOKENS", "temperature: 0.7"} {
			term.waitFor(t, want)
		}
		term.send(t, "y")
		term.waitFor(t, "tai would send the model's reply to MCP server everything")
		term.send(t, "s")
		if err := cmd.Wait(); err != nil {
			t.Fatalf("tai mcp call: %v\n%s", err, term.text())
		}
		if out := term.text(); !strings.Contains(out, "LLM sampling result") || !strings.Contains(out, "fake model says: Resource trigger-sampling-request context: what is 2+2?") ||
			!strings.Contains(out, `"model": "openai:fake"`) {
			t.Errorf("the server did not answer with the model's reply:\n%s", out)
		}
		reqs := modelRequests(t, log)
		if len(reqs) != 1 || reqs[0].MaxTokens != 4096 || len(reqs[0].Tools) != 0 || reqs[0].System != "You are a helpful test server." {
			t.Errorf("model requests %+v; want one, clamped to 4096, without tools", reqs)
		}
	})

	t.Run("sampling_auto", func(t *testing.T) {
		runTai(t, home, "", "profile", "set", "sampling_auto", "true")
		cmd := exec.Command(taiBinary(t), args...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "fake model says:") || !strings.Contains(string(out), "auto-approved (sampling_auto)") {
			t.Errorf("tai mcp call: %v\n%s", err, out)
		}
		audit := runTai(t, home, "", "audit", "--kind", "mcp-sample")
		for _, want := range []string{"refused", "sent"} {
			if !strings.Contains(audit, want) {
				t.Errorf("the audit trail lacks a %s sampling row:\n%s", want, audit)
			}
		}
	})
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// modelRequests reads the fake model's request log.
func modelRequests(t *testing.T, log string) []llmtest.Request {
	t.Helper()
	f, err := os.Open(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []llmtest.Request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r llmtest.Request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// ptyOut is a process under a pseudo-terminal and everything it wrote.
type ptyOut struct {
	f       *os.File
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func startPTY(t *testing.T, cmd *exec.Cmd) *ptyOut {
	t.Helper()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	p := &ptyOut{f: f, changed: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			p.mu.Lock()
			p.buf.Write(b[:n])
			p.mu.Unlock()
			select {
			case p.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		f.Close()
	})
	return p
}

// text is what the process wrote, line endings as \n.
func (p *ptyOut) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.ReplaceAll(p.buf.String(), "\r\n", "\n")
}

func (p *ptyOut) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(time.Minute)
	for !strings.Contains(p.text(), want) {
		select {
		case <-p.changed:
		case <-deadline:
			t.Fatalf("the terminal never showed %q:\n%s", want, p.text())
		}
	}
}

func (p *ptyOut) send(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(p.f, s); err != nil {
		t.Fatal(err)
	}
}
