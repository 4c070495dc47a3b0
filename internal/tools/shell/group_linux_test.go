package shell

import (
	"context"
	"strings"
	"syscall"
	"testing"

	"tai/internal/tools"
)

// A command that never ends is killed at its timeout with everything it
// started.
func TestShell_TimeoutKillsTheProcessGroup(t *testing.T) {
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON("echo $$ $(sleep 1000 >/dev/null & echo $!); sleep 1000", `, "timeout": 1`))
	assertStoppedWithGroup(t, res, "[timed out after 1s: the command and its process group were killed]")
}

func TestShell_CancelKillsTheProcessGroup(t *testing.T) {
	w := &signalWriter{ready: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-w.ready
		cancel()
	}()
	res := callCtx(t, ctx, Shell(), &tools.Env{Progress: w}, shellArgsJSON("sleep 1000 & echo $$ $!; wait", ""))
	assertStoppedWithGroup(t, res, "[cancelled: the command and its process group were killed]")
}

// assertStoppedWithGroup fails t unless res is a tool error saying why,
// and the shell and the child whose pids the command printed first are
// killed, the shell's process group with them.
func assertStoppedWithGroup(t *testing.T, res tools.Result, why string) {
	t.Helper()
	if !res.IsError || !strings.Contains(res.Text, why) {
		t.Fatalf("got %+v", res)
	}
	p := pids(t, res.Text)
	assertKilled(t, p[1])
	assertGroupKilled(t, p[0])
}

// Processes a finished command leaves behind are killed, so they cannot
// hold the output open and hang the call.
func TestShell_LeftoverProcessesAreKilledAtExit(t *testing.T) {
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON("sleep 1000 & echo $!", ""))
	if res.IsError || !strings.HasSuffix(res.Text, "[exit code 0]") {
		t.Fatalf("got %+v", res)
	}
	assertKilled(t, pids(t, res.Text)[0])
}

// A process that leaves the group and keeps the output pipe open cannot
// hang the call: reading stops after a short grace.
func TestShell_EscapedProcessDoesNotHangTheCall(t *testing.T) {
	res := call(t, Shell(), &tools.Env{}, shellArgsJSON("setsid sleep 1000 & echo $!", ""))
	if res.IsError || !strings.HasSuffix(res.Text, "\n[exit code 0]") {
		t.Fatalf("got %+v", res)
	}
	escaped := pids(t, res.Text)[0]
	syscall.Kill(escaped, syscall.SIGKILL)
	assertKilled(t, escaped)
}
