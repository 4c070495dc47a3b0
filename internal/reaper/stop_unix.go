//go:build unix

package reaper

import "syscall"

// Stop asks the watcher with the given pid to end its child: SIGTERM to
// the child's process group and to every descendant, then, after the
// grace given to [Wrap], SIGKILL to every descendant still running. The
// watcher exits once all of them are reaped. Where no watcher runs (see
// [Wrap]) it is SIGTERM to pid. Windows has neither: package jobobject
// serves there.
func Stop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
