//go:build !windows

package shell

import (
	"os/exec"
	"syscall"
)

// processTree is the shell's process group.
type processTree struct{ pgid int }

// shellCommand is line for /bin/sh.
func shellCommand(line string) *exec.Cmd { return exec.Command("/bin/sh", "-c", line) }

// startTree starts cmd in a process group of its own.
func startTree(cmd *exec.Cmd) (processTree, error) {
	if cmd.SysProcAttr == nil { // the sandbox may have set namespaces
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return processTree{}, err
	}
	return processTree{cmd.Process.Pid}, nil
}

func (t processTree) kill() { syscall.Kill(-t.pgid, syscall.SIGKILL) }

func (t processTree) release() {}

// shellUnderstood is nil: the read-only rules are written for sh.
func shellUnderstood() error { return nil }

// shellNote adds nothing to the tool's description here.
func shellNote() string { return "" }
