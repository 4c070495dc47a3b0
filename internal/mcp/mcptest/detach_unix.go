//go:build unix

package mcptest

import (
	"os/exec"
	"syscall"
)

// detach starts a `sleep` in a session of its own, out of the server's
// process group, as setsid(1) or a daemonizing server makes one.
func detach() (int, error) {
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}
