// Package reaper runs a child process under a watcher so that every
// process the child starts ends when the child does, including those it
// detaches from its process group (setsid, a double fork).
//
// The watcher is a second copy of tai's own binary (/proc/self/exe, run
// with [Arg]) that sits between tai and the child. On Linux it makes itself
// a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a descendant whose
// parent dies is reparented to the nearest living subreaper, which is the
// watcher, never init, so everything the child started stays in the
// watcher's process tree for as long as the watcher lives. When the child
// exits, or tai tells the watcher to stop, the watcher kills every
// descendant it still has, reaps them, and exits with the child's status.
//
// Why a watcher per child and not tai itself as the subreaper: orphans
// reparented to tai could not be told apart (which server, or which shell
// job, a setsid'd process came from is not recorded anywhere once its
// parent has died), and tai would have to reap them without stealing the
// exit status of children os/exec waits for. The watcher owns exactly one
// subtree, so it may kill all of it and reap with wait4(-1) freely.
// A cgroup would do the same, but tai rarely has a writable cgroup v2
// subtree (a login session's scope belongs to root, containers mount
// cgroupfs read-only).
//
// Elsewhere (macOS has no subreaper) [Wrap] does nothing and callers keep
// killing the child's process group, which a setsid'd process escapes.
package reaper

import (
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"
)

// Arg is the first argument that makes tai run as a watcher:
//
//	tai __reap GRACE PATH ARGV0 [ARGS…]
const Arg = "__reap"

// able is set once the running binary has called [Main], the sign that
// re-running it with [Arg] starts a watcher. A binary that never calls Main
// (another package's test binary) would run something else, so [Wrap]
// leaves commands alone there.
var able atomic.Bool

// Main runs the watcher when args, the arguments after the program name,
// start with [Arg]: it returns the exit code for the process and true.
// Otherwise it returns false, having marked this binary as able to run the
// watcher. Call it first thing in main (and in a TestMain whose tests
// start children through Wrap).
func Main(args []string) (int, bool) {
	if len(args) > 0 && args[0] == Arg {
		return watch(args[1:]), true
	}
	able.Store(true)
	return 0, false
}

// Wrap rewrites cmd, not yet started, to run under a watcher and reports
// whether it did. The watcher stops the child on SIGTERM (see [Stop]),
// allowing it grace between SIGTERM and SIGKILL. Put the watcher in a
// process group of its own (Setpgid): the child stays in that group.
//
// Wrap does nothing where there is no subreaper, in a binary that did not
// call [Main], or when the command would fail to start (not found, not
// executable), so that Start reports that failure as it would unwrapped.
func Wrap(cmd *exec.Cmd, grace time.Duration) bool {
	if !supported || !able.Load() || cmd.Err != nil || cmd.Process != nil {
		return false
	}
	path := cmd.Path
	if !filepath.IsAbs(path) && cmd.Dir != "" {
		path = filepath.Join(cmd.Dir, path)
	}
	if _, err := exec.LookPath(path); err != nil {
		return false
	}
	argv := append([]string{"tai", Arg, grace.String(), cmd.Path}, cmd.Args...)
	cmd.Path, cmd.Args = "/proc/self/exe", argv
	return true
}
