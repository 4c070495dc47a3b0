package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"tai/internal/mcp/wire"
)

// shutdownGrace is how long Close waits after closing stdin, and again
// after SIGTERM, before the next, harder step.
const shutdownGrace = 2 * time.Second

// maxBodyText names the message cap in errors.
var maxBodyText = fmt.Sprintf("%dMiB (MCP_HTTP_MAX_BODY)", wire.HTTPMaxBody>>20)

// encode is m as sent by either transport, refused over MCP_HTTP_MAX_BODY.
func encode(m *wire.Message) ([]byte, error) {
	b, err := wire.Encode(m)
	if err != nil {
		return nil, fmt.Errorf("encoding: %w", err)
	}
	if len(b) > wire.HTTPMaxBody {
		return nil, fmt.Errorf("message of %d bytes is over %s", len(b), maxBodyText)
	}
	return b, nil
}

// Stdio runs a server as a child process speaking newline-delimited
// JSON-RPC on its stdin and stdout (McpStdioTransport). The child's
// environment is a few of tai's variables (see [InheritedEnv]) plus Env.
// On Linux it runs under a watcher (package reaper), on Windows in a Job
// Object (package jobobject), so that whatever it starts, detached or
// not, ends with it.
type Stdio struct {
	Command string
	Args    []string
	// Env adds to, or overrides, the inherited variables: the only way a
	// server gets anything else of tai's environment.
	Env map[string]string
	// Dir is the working directory; empty means tai's.
	Dir string
	// Label names the server in errors instead of the command line, which
	// may hold substituted secrets; the bridge passes the line its consent
	// screen showed ([env:NAME] and [secret:NAME] in their place).
	Label string
	// Confine, when set, rewrites the command to run confined (package
	// sandbox) before it starts; its error stops the start.
	// It returns what to release once the process ended (nil: nothing).
	Confine func(*exec.Cmd) (release func(), err error)

	grace time.Duration // shutdownGrace unless a test shortens it
}

// String returns the command line, quoted where needed and printable.
func (s Stdio) String() string {
	if s.Label != "" {
		return wire.Printable(s.Label, 200)
	}
	parts := []string{quoteArg(s.Command)}
	for _, a := range s.Args {
		parts = append(parts, quoteArg(a))
	}
	return wire.Printable(strings.Join(parts, " "), 200)
}

func quoteArg(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\n\"'\\$") {
		return a
	}
	return fmt.Sprintf("%q", a)
}

// stdioTransport is one running child. Three goroutines serve it: the
// stdout reader, the stderr drain and the waiter.
type stdioTransport struct {
	unconfine func() // the confinement's release, once the process ended
	cmd       *exec.Cmd
	stdin     *os.File
	stdout    *os.File
	stderr    *os.File
	grace     time.Duration
	tree      processTree // how the server's whole process tree is ended
	log       *tail
	peer      peer

	wmu sync.Mutex // one message at a time on stdin

	exited  chan struct{} // closed when the child has been reaped
	waitErr error
	drained chan struct{} // closed when stderr reached EOF

	lostOnce sync.Once
	lostCh   chan struct{}
	lostErr  error

	closeOnce sync.Once
	wg        sync.WaitGroup
}

func (s Stdio) dial(ctx context.Context, p peer, log *tail) (transport, error) {
	if s.Command == "" {
		return nil, fmt.Errorf("no command given")
	}
	var files [6]*os.File // in r/w, out r/w, err r/w
	for i := 0; i < 6; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(files[:i])
			return nil, fmt.Errorf("creating pipes: %w", err)
		}
		files[i], files[i+1] = r, w
	}
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[3], files[5]
	cmd.Env = childEnv(os.Environ(), s.Env, runtime.GOOS)
	cmd.Dir = s.Dir
	var release func()
	if s.Confine != nil {
		var err error
		if release, err = s.Confine(cmd); err != nil {
			closeAll(files[:])
			return nil, err
		}
	}
	grace := s.grace
	if grace == 0 {
		grace = shutdownGrace
	}
	tree, err := startTree(cmd, grace)
	closeAll([]*os.File{files[0], files[3], files[5]}) // the child's ends
	if err != nil {
		closeAll([]*os.File{files[1], files[2], files[4]})
		if release != nil {
			release()
		}
		return nil, fmt.Errorf("%w; check the command and that it is installed", err)
	}
	t := &stdioTransport{
		unconfine: release, cmd: cmd, stdin: files[1], stdout: files[2], stderr: files[4],
		grace: grace, tree: tree, log: log, peer: p,
		exited: make(chan struct{}), drained: make(chan struct{}), lostCh: make(chan struct{}),
	}
	t.wg.Add(2)
	go t.wait()
	go t.drain()
	return t, nil
}

// exitedWithin reports whether the server exits within d.
func (t *stdioTransport) exitedWithin(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.exited:
		return true
	case <-timer.C:
		return false
	}
}

func (t *stdioTransport) start() {
	t.wg.Add(1)
	go t.read()
}

func closeAll(files []*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

func (t *stdioTransport) wait() {
	defer t.wg.Done()
	t.waitErr = t.cmd.Wait()
	if t.unconfine != nil {
		t.unconfine()
	}
	close(t.exited)
}

// drain keeps the end of stderr; it is never parsed.
func (t *stdioTransport) drain() {
	defer t.wg.Done()
	defer close(t.drained)
	buf := make([]byte, 32<<10)
	for {
		n, err := t.stderr.Read(buf)
		t.log.Write(buf[:n])
		if err != nil {
			return
		}
	}
}

func (t *stdioTransport) send(ctx context.Context, m *wire.Message) error {
	b, err := encode(m)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if deadline, ok := ctx.Deadline(); ok {
		t.stdin.SetWriteDeadline(deadline)
		defer t.stdin.SetWriteDeadline(time.Time{})
	}
	if _, err := t.stdin.Write(b); err != nil {
		select {
		case <-t.lostCh:
			return t.lostErr
		default:
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, syscall.EPIPE) {
			// The server closed its stdin or exited: the connection is
			// lost, and the reader will soon say why.
			select {
			case <-t.lostCh:
				return t.lostErr
			case <-time.After(shutdownGrace):
			}
			return fmt.Errorf("%w: writing to the server: %v", ErrLost, err)
		}
		return fmt.Errorf("writing to the server: %w", err)
	}
	return nil
}

func (t *stdioTransport) negotiated(wire.Era, string) {}

// closesToCancel is false: stdio has no per-request stream to close.
func (t *stdioTransport) closesToCancel() bool { return false }

func (t *stdioTransport) lost() <-chan struct{} { return t.lostCh }

func (t *stdioTransport) cause() error {
	<-t.lostCh
	return t.lostErr
}

// release ends what is left once the server is gone: the pipes reach EOF
// with it, and closing our ends also frees readers from a writer that
// left (a process of its group, or of its job); then it waits for the
// transport's goroutines.
func (t *stdioTransport) release() {
	select {
	case <-t.drained:
	case <-time.After(t.grace):
	}
	t.stdout.Close()
	t.stderr.Close()
	t.wg.Wait()
}

// lose records the first reason the connection ended.
func (t *stdioTransport) lose(err error) {
	t.lostOnce.Do(func() {
		t.lostErr = err
		close(t.lostCh)
	})
}

// exitReason describes why stdout ended, waiting briefly for the child's
// exit status so the error can name it.
func (t *stdioTransport) exitReason() error {
	select {
	case <-t.exited:
	case <-time.After(time.Second):
		return fmt.Errorf("%w: the server closed its stdout", ErrLost)
	}
	// Let the drain catch the server's last words, boundedly.
	select {
	case <-t.drained:
	case <-time.After(100 * time.Millisecond):
	}
	status := "exited"
	if t.waitErr != nil {
		status = "exited (" + t.waitErr.Error() + ")"
	}
	return &lostError{fmt.Sprintf("%v: the server %s%s", ErrLost, status, t.log.quote())}
}

// lostError wraps ErrLost with a message of its own, which already quotes
// the server's stderr.
type lostError struct{ msg string }

func (e *lostError) Error() string { return e.msg }
func (e *lostError) Unwrap() error { return ErrLost }
