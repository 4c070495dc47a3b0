//go:build !windows

package client

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// alive reports whether pid runs (exists and is not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}

// detachedAttr puts a child in a session of its own, out of the server's
// process group, as setsid(1) or a daemonizing server does.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
