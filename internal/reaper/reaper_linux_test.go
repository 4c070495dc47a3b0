package reaper_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tai/internal/proctest"
	"tai/internal/reaper"
)

func TestMain(m *testing.M) {
	if code, ok := reaper.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// watched starts sh -c script under the watcher, in a group of its own.
func watched(t *testing.T, script string, grace time.Duration) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if !reaper.Wrap(cmd, grace) {
		t.Fatal("Wrap left the command alone")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(out)
}

// readPid reads one line holding a pid.
func readPid(t *testing.T, r *bufio.Reader) int {
	t.Helper()
	line, err := r.ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("read %q, %v", line, err)
	}
	return pid
}

// The child leaves on its own, having detached a process with setsid: the
// watcher kills that process and passes the child's exit code on.
func TestWatcher_EndsWhatTheChildDetached(t *testing.T) {
	cmd, out := watched(t, `setsid sleep 1000 </dev/null >/dev/null & echo $!; exit 3`, time.Second)
	pid := readPid(t, out)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("wait: %v, want exit status 3", err)
	}
	proctest.AssertGone(t, pid)
}

// Stop: SIGTERM first, then, past the grace, SIGKILL to a child that
// ignores it and to what it detached; the child's death by SIGKILL is the
// watcher's own.
func TestWatcher_StopKillsAChildIgnoringSIGTERM(t *testing.T) {
	cmd, out := watched(t, `trap '' TERM; setsid sleep 1000 </dev/null >/dev/null & echo $!; echo ready; while :; do sleep 1; done`, 100*time.Millisecond)
	pid := readPid(t, out)
	if line, _ := out.ReadString('\n'); line != "ready\n" {
		t.Fatalf("read %q", line)
	}
	if err := reaper.Stop(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("wait: %v, want killed by SIGKILL", err)
	}
	proctest.AssertGone(t, pid)
}

// A command that cannot start is left to Start to report, as unwrapped.
func TestWrap_LeavesAFailingCommandAlone(t *testing.T) {
	for _, name := range []string{"/nonexistent/server", "no-such-program-anywhere"} {
		cmd := exec.Command(name)
		if reaper.Wrap(cmd, time.Second) {
			t.Errorf("%s: wrapped", name)
		}
		if err := cmd.Start(); err == nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Errorf("%s: started", name)
		}
	}
}
