package mcptest

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// envSleep makes the re-executed test binary sleep forever (see Main).
const envSleep = "TAI_FAKE_SLEEP"

func detached() *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envSleep+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
	return cmd
}
