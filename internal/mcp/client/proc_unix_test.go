//go:build !windows

package client

import (
	"syscall"

	"tai/internal/proctest"
)

// alive reports whether pid runs (exists and is not a zombie).
func alive(pid int) bool { return proctest.Running(pid) }

// detachedAttr puts a child in a session of its own, out of the server's
// process group, as setsid(1) or a daemonizing server does.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
