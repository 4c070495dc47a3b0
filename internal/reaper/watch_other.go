//go:build !linux

package reaper

import "syscall"

// Without a subreaper there is no watcher: Wrap leaves commands alone.
const supported = false

// Stop is SIGTERM to pid; no watcher runs here (see [Wrap]).
func Stop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

func watch([]string) int { return 2 }
