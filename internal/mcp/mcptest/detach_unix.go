//go:build !windows

package mcptest

import (
	"os/exec"
	"syscall"
)

// envSleep makes the re-executed test binary sleep forever (see Main).
const envSleep = "TAI_FAKE_SLEEP"

func detached() *exec.Cmd {
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}
