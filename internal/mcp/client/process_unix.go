//go:build unix

package client

import (
	"errors"
	"os/exec"
	"syscall"
	"time"

	"tai/internal/reaper"
)

// processTree records whether the server runs under a watcher.
type processTree struct {
	// watched is set when cmd is the watcher (package reaper) running the
	// server, which then ends the server's whole tree itself.
	watched bool
}

// startTree starts cmd in a new process group, so shutdown also reaches
// what it spawned (npx starts a shell that starts node), under a watcher
// where there is one.
func startTree(cmd *exec.Cmd, grace time.Duration) (processTree, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	watched := reaper.Wrap(cmd, grace)
	return processTree{watched}, cmd.Start()
}

// close shuts the child down: close stdin and wait, then SIGTERM the group
// and wait, then SIGKILL the group. The group is killed in the end in any
// case, so no grandchild in it outlives the connection. A watched server
// (see [reaper.Wrap]) is stopped through its watcher, which takes the same
// two steps over every descendant, those that left the group included,
// and exits once they are gone; the group kill then remains for a watcher
// that failed to.
func (t *stdioTransport) close() error {
	t.closeOnce.Do(func() {
		t.lose(ErrClosed)
		t.stdin.Close()
		pgid := t.cmd.Process.Pid
		if !t.exitedWithin(t.grace) {
			wait := t.grace
			if t.tree.watched {
				reaper.Stop(pgid)
				wait = 2*t.grace + time.Second // its own grace, then its kill rounds
			} else {
				syscall.Kill(-pgid, syscall.SIGTERM)
			}
			if !t.exitedWithin(wait) {
				syscall.Kill(-pgid, syscall.SIGKILL)
				<-t.exited
			}
		}
		if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			t.log.note("killing the server's process group: " + err.Error())
		}
		t.release()
	})
	return nil
}
