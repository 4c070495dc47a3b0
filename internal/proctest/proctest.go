//go:build linux

// Package proctest helps tests prove that processes a tool started were
// killed: the test process becomes a child subreaper, so orphaned
// grandchildren are reparented to it and can be waited for exactly.
package proctest

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"tai/internal/reaper"
	"testing"
	"time"
)

const prSetChildSubreaper = 36

// Subreap makes the test process a child subreaper. Call it from TestMain
// before m.Run.
func Subreap() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %w", errno)
	}
	return nil
}

// Reap waits for pid, an orphan the test process adopted (or its own
// child), and reports how it ended. gone is true when pid is not the test's
// child and no longer exists: its own parent reaped it (as a parent blocked
// in wait does when a group kill reaches the child first). The minute
// guards against hanging on a failure; it is not a timing assertion.
func Reap(t *testing.T, pid int) (ws syscall.WaitStatus, gone bool) {
	t.Helper()
	type waited struct {
		ws  syscall.WaitStatus
		err error
	}
	ch := make(chan waited, 1)
	go func() {
		var w waited
		for {
			if _, w.err = syscall.Wait4(pid, &w.ws, 0, nil); w.err != syscall.EINTR {
				break
			}
		}
		ch <- w
	}()
	select {
	case w := <-ch:
		if w.err == nil {
			return w.ws, false
		}
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); os.IsNotExist(err) {
			return 0, true
		}
		t.Fatalf("process %d exists but is not a child of the test (%v): its parent is still running", pid, w.err)
	case <-time.After(time.Minute):
		t.Fatalf("process %d still running a minute after it should have been killed", pid)
	}
	return 0, false
}

// AssertKilled checks that pid is dead: reaped by the test, it must have
// died of SIGKILL; otherwise it must be gone.
func AssertKilled(t *testing.T, pid int) {
	t.Helper()
	ws, gone := Reap(t, pid)
	if !gone && (!ws.Signaled() || ws.Signal() != syscall.SIGKILL) {
		t.Errorf("process %d: wait status %v, want killed by SIGKILL", pid, ws)
	}
}

// AssertGroupKilled checks that no process of group pgid is still running.
// Members the test process adopted are reaped and must have died of
// SIGKILL; any other member must be a zombie or already exiting.
func AssertGroupKilled(t *testing.T, pgid int) {
	t.Helper()
	for _, p := range members(pgid) {
		switch {
		case p.PPID == os.Getpid():
			AssertKilled(t, p.PID)
		case p.State != "Z" && p.State != "X" && p.ExitCode == "0":
			t.Errorf("process %d of group %d is still running (parent %d)", p.PID, pgid, p.PPID)
		}
	}
}

// members lists the processes of group pgid, zombies included.
func members(pgid int) []reaper.Process {
	var out []reaper.Process
	for _, p := range reaper.Processes() {
		if p.PGID == pgid {
			out = append(out, p)
		}
	}
	return out
}
