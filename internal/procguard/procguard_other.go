//go:build !linux

package procguard

// protect does nothing outside Linux. On macOS no file shows another
// process's environment or memory: task_for_pid needs root or a debugger
// entitlement, and PT_DENY_ATTACH would only stop debuggers the user runs
// on purpose. What remains is the exec-time environment that `ps -E` (the
// KERN_PROCARGS2 sysctl) shows to processes of the same user; tai does not
// rewrite it there.
func protect([]string) error { return nil }
