package shell

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// prSetChildSubreaper makes orphaned descendants children of the test
// process, so a test can wait for the grandchildren a command started and
// see exactly how they ended.
const prSetChildSubreaper = 36

func TestMain(m *testing.M) {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintln(os.Stderr, "prctl(PR_SET_CHILD_SUBREAPER):", errno)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// reap waits for pid, an orphan the test process adopted, and returns how
// it ended. The minute is a guard against hanging on a failure, not a
// timing assertion.
func reap(t *testing.T, pid int) syscall.WaitStatus {
	t.Helper()
	ch := make(chan syscall.WaitStatus, 1)
	go func() {
		var ws syscall.WaitStatus
		for {
			_, err := syscall.Wait4(pid, &ws, 0, nil)
			if err != syscall.EINTR {
				break
			}
		}
		ch <- ws
	}()
	select {
	case ws := <-ch:
		return ws
	case <-time.After(time.Minute):
		t.Fatalf("process %d still running a minute after it should have been killed", pid)
		return 0
	}
}

// assertKilled checks that pid was ended by SIGKILL.
func assertKilled(t *testing.T, pid int) {
	t.Helper()
	if ws := reap(t, pid); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("process %d: wait status %v, want killed by SIGKILL", pid, ws)
	}
}

// liveInGroup lists the processes of group pgid that are not zombies.
func liveInGroup(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var live []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state ppid pgrp …
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			live = append(live, pid)
		}
	}
	return live
}

// pids reads the whitespace-separated numbers on the first line of s.
func pids(t *testing.T, s string) []int {
	t.Helper()
	line, _, _ := strings.Cut(s, "\n")
	var out []int
	for _, f := range strings.Fields(line) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("first line %q: want pids", line)
		}
		out = append(out, n)
	}
	return out
}
