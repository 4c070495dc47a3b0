package cli

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"tai/internal/llm/llmtest"
)

// termDeadline bounds every wait on the screen. It is a failure bound,
// not a measurement: a loaded machine running -race is slow to start.
const termDeadline = 90 * time.Second

// termCols is the terminal's width.
const termCols = 160

// ptyTerm is tai running under a pseudo-terminal, with the screen it draws.
type ptyTerm struct {
	t       *testing.T
	pty     *os.File
	home    string // TAI_HOME
	mu      sync.Mutex
	vt      *vt
	raw     bytes.Buffer
	changed chan struct{}
	eof     chan struct{} // the screen has everything tai wrote
	exited  chan struct{}
	err     error // from Wait, once exited is closed
}

// startTerm runs tai with args under a pseudo-terminal in dir, talking to
// the fake model srv. env adds or overrides variables.
func startTerm(t *testing.T, srv *llmtest.Server, dir string, env []string, args ...string) *ptyTerm {
	t.Helper()
	home := t.TempDir()
	cmd := taiCmd(home, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, "TERM=xterm", "HOME="+dir, "NO_COLOR=",
		"TAI_BASE_URL="+srv.URL+"/v1", "TAI_MODEL=openai:fake-model", "OPENAI_API_KEY="+llmtest.Key,
		"ANTHROPIC_API_KEY=", "TAI_API_KEY=", "TAI_VAULT_PASSPHRASE=")
	cmd.Env = append(cmd.Env, env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: termCols})
	if err != nil {
		t.Fatal(err)
	}
	tm := &ptyTerm{t: t, pty: f, home: home, vt: newVT(termCols), changed: make(chan struct{}, 1), eof: make(chan struct{}), exited: make(chan struct{})}
	go tm.read()
	go func() {
		tm.err = cmd.Wait()
		close(tm.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-tm.exited:
		default:
			cmd.Process.Kill()
			<-tm.exited
		}
		f.Close()
		if t.Failed() || os.Getenv("TAI_TEST_SCREENS") != "" {
			t.Logf("screen:\n%s", tm.screen())
		}
	})
	return tm
}

func (tm *ptyTerm) read() {
	buf := make([]byte, 4096)
	for {
		n, err := tm.pty.Read(buf)
		tm.mu.Lock()
		tm.vt.write(buf[:n])
		tm.raw.Write(buf[:n])
		tm.mu.Unlock()
		select {
		case tm.changed <- struct{}{}:
		default:
		}
		if err != nil {
			close(tm.eof)
			return
		}
	}
}

func (tm *ptyTerm) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.vt.text()
}

// send types s; "\r" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D.
func (tm *ptyTerm) send(s string) {
	tm.t.Helper()
	if _, err := tm.pty.WriteString(s); err != nil {
		tm.t.Fatalf("typing %q: %v", s, err)
	}
}

// waitFor waits until ok holds for the screen and its cursor line.
func (tm *ptyTerm) waitFor(what string, ok func(screen, cursor string) bool) {
	tm.t.Helper()
	deadline := time.After(termDeadline)
	for {
		tm.mu.Lock()
		screen, cursor := tm.vt.text(), tm.vt.cursorLine()
		tm.mu.Unlock()
		if ok(screen, cursor) {
			return
		}
		select {
		case <-tm.changed:
		case <-tm.exited:
			tm.drain()
			if !ok(tm.screen(), "") {
				tm.t.Fatalf("tai exited (%v) before the screen showed %s", tm.err, what)
			}
			return
		case <-deadline:
			tm.t.Fatalf("the screen never showed %s", what)
		}
	}
}

// drain waits for the last output of an exited process to be read.
func (tm *ptyTerm) drain() {
	select {
	case <-tm.eof:
	case <-time.After(termDeadline):
	}
}

// waitText waits until the screen matches the regular expression re.
func (tm *ptyTerm) waitText(re string) {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	tm.waitFor("/"+re+"/", func(s, _ string) bool { return rx.MatchString(s) })
}

// waitPrompt waits for the n-th prompt of profile to be the line the
// cursor is on, empty and ready for typing.
func (tm *ptyTerm) waitPrompt(profile string, n int) {
	tm.t.Helper()
	p := profile + ">"
	tm.waitFor("prompt "+p+" number "+strings.Repeat("I", n), func(s, cursor string) bool {
		return countPrompts(s, p) >= n && cursor == p
	})
}

func countPrompts(screen, p string) int {
	n := 0
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, p) {
			n++
		}
	}
	return n
}

// startFake serves script on a loopback port for the test; each request
// is also sent on the returned channel as it arrives (buffered, so
// nobody has to read them).
func startFake(t *testing.T, script llmtest.Script) (*llmtest.Server, <-chan llmtest.Request) {
	f := llmtest.NewFake(script)
	arrived := make(chan llmtest.Request, 100)
	f.OnRequest = func(r llmtest.Request) { arrived <- r }
	hs := httptest.NewServer(f)
	t.Cleanup(func() {
		f.Stop()
		hs.Close()
	})
	return &llmtest.Server{Fake: f, URL: hs.URL}, arrived
}

// waitRequest waits for the fake to receive a request.
func waitRequest(t *testing.T, arrived <-chan llmtest.Request) llmtest.Request {
	t.Helper()
	select {
	case r := <-arrived:
		return r
	case <-time.After(termDeadline):
		t.Fatal("the model got no request")
		return llmtest.Request{}
	}
}

// exitCode waits for tai to exit and returns its code.
func (tm *ptyTerm) exitCode() int {
	tm.t.Helper()
	select {
	case <-tm.exited:
	case <-time.After(termDeadline):
		tm.t.Fatal("tai did not exit")
	}
	var ee *exec.ExitError
	if errors.As(tm.err, &ee) {
		return ee.ExitCode()
	}
	if tm.err != nil {
		tm.t.Fatal(tm.err)
	}
	return 0
}

// exitOK waits for tai to exit and fails the test unless its code is 0.
func (tm *ptyTerm) exitOK() {
	tm.t.Helper()
	if code := tm.exitCode(); code != 0 {
		tm.t.Fatalf("exit code %d", code)
	}
}

// quit types /exit and waits for tai to leave with 0.
func (tm *ptyTerm) quit() {
	tm.t.Helper()
	tm.send("/exit\r")
	tm.exitOK()
}
