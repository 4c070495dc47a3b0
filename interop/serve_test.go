package interop

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// tai's server against clients nobody on the project wrote: the official
// conformance suite's server scenarios (conformance_test.go), the MCP
// Inspector's CLI, and a client on the official Go SDK.

const serveKey = "interop-serve-key-0123456789"

// built returns the binary ./run built and named in env.
func built(t *testing.T, env string) string {
	t.Helper()
	p := os.Getenv(env)
	if p == "" {
		t.Fatalf("%s is not set: run interop/run, which builds it", env)
	}
	return p
}

// startLine runs cmd and returns the first line of out (its stdout or
// stderr) that matches re's first group, draining the rest; the process
// is stopped when the test ends.
func startLine(t *testing.T, cmd *exec.Cmd, out io.Reader, re *regexp.Regexp) string {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	lines := bufio.NewScanner(out)
	var seen []string
	for lines.Scan() {
		seen = append(seen, lines.Text())
		if m := re.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, out)
			return m[1]
		}
	}
	t.Fatalf("%s did not say where it listens:\n%s", filepath.Base(cmd.Path), strings.Join(seen, "\n"))
	return ""
}

// startFakeLLM serves a model script from cmd/fakellm and returns its URL.
func startFakeLLM(t *testing.T, script string) string {
	t.Helper()
	return startFakeLLMLogged(t, script, "")
}

// startFakeLLMLogged is startFakeLLM that, with a log path, appends each
// request the model gets to it as a JSON line.
func startFakeLLMLogged(t *testing.T, script, log string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"-script", path}
	if log != "" {
		args = append(args, "-requests", log)
	}
	cmd := exec.Command(built(t, "INTEROP_FAKELLM"), args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return startLine(t, cmd, out, regexp.MustCompile(`^(http://\S+)$`))
}

// echoModel answers every message with its text.
const echoModel = `{"rules":[{"turns":[{"text":"fake model says: {{user}}"}]}]}`

// taiServe is a running `tai --serve-mcp` on a fresh home, in dir, with
// the fake model at modelURL.
type taiServe struct {
	url string
	cmd *exec.Cmd
	dir string
}

func startTaiServe(t *testing.T, modelURL string) *taiServe {
	t.Helper()
	return startTaiServeIn(t, modelURL, filepath.Join(t.TempDir(), "home"), t.TempDir())
}

// startTaiServeIn is startTaiServe on the given home and directory.
func startTaiServeIn(t *testing.T, modelURL, home, dir string) *taiServe {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("hello from a file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(taiBinary(t), "--serve-mcp", "-", "--mcp-port", "0")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TAI_HOME="+home, "TAI_MCP_KEY="+serveKey,
		"TAI_BASE_URL="+modelURL+"/v1", "TAI_MODEL=openai:fake", "OPENAI_API_KEY=sk-fake")
	errOut, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	url := startLine(t, cmd, errOut, regexp.MustCompile(`serving MCP at (http://\S+)`))
	return &taiServe{url: url, cmd: cmd, dir: dir}
}

// stop sends SIGTERM and wants exit 0.
func (s *taiServe) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("tai --serve-mcp after SIGTERM: %v; want exit 0", err)
	}
}
