//go:build !windows

package git

import (
	"os/exec"
	"syscall"
)

// runTree runs cmd in a process group of its own, all of which cancelling
// kills: what git starts (a credential helper, ssh) are its children.
func runTree(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil { // the sandbox's namespaces may be set already
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd.Run()
}
