package reaper

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const supported = true

// killBound bounds the rounds of killing descendants: a process that forks
// faster than it can be killed is left after it, with a note on stderr.
const killBound = 10 * time.Second

// watch is the watcher's main: args are GRACE PATH ARGV0 [ARGS…].
func watch(args []string) int {
	if len(args) < 3 {
		fmt.Fprintf(os.Stderr, "tai %s: want GRACE PATH ARGV0 [ARGS…]\n", Arg)
		return 2
	}
	grace, err := time.ParseDuration(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "tai %s: bad grace %q\n", Arg, args[0])
		return 2
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "tai: cannot become a child subreaper: %v\n", err)
		return 126
	}
	// Caught, not ignored: a caught signal is back to its default in the
	// child after exec, an ignored one would stay ignored there.
	stop := make(chan os.Signal, 4)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	parent := os.Getppid()
	child, err := os.StartProcess(args[1], args[2:], &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "tai: cannot start %s: %v\n", args[1], err)
		return 127
	}
	// The child's stdin and stdout must reach EOF with the child's tree,
	// not with the watcher: hold /dev/null instead. stderr stays for the
	// notes below.
	if null, err := os.Open(os.DevNull); err == nil {
		unix.Dup3(int(null.Fd()), 0, 0)
		unix.Dup3(int(null.Fd()), 1, 0)
		null.Close()
	}
	w := &watcher{child: child.Pid, exited: make(chan syscall.WaitStatus, 1), reaped: make(chan struct{})}
	go w.reap()
	ws := w.run(stop, parent, grace)
	w.killAll()
	<-w.reaped
	return exitCode(ws)
}

// watcher owns the child's process tree. It reaps with wait4(-1): every
// process it can reap is the child or an orphan of the child's tree, and
// no os/exec Cmd in this process waits for any of them.
type watcher struct {
	child  int
	exited chan syscall.WaitStatus // the child's status, once
	reaped chan struct{}           // closed when no child is left (ECHILD)
}

// reap waits for every process reparented to the watcher, so none stays
// a zombie, until there is none left.
func (w *watcher) reap() {
	defer close(w.reaped)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return // ECHILD: nothing left, and nothing can join a tree that is gone
		}
		if pid == w.child {
			w.exited <- ws
		}
	}
}

// run waits for the child to exit, or for a reason to stop it: a signal
// (tai closing the server) or tai itself gone (the watcher reparented).
func (w *watcher) run(stop <-chan os.Signal, parent int, grace time.Duration) syscall.WaitStatus {
	orphaned := time.NewTicker(time.Second)
	defer orphaned.Stop()
	for {
		select {
		case ws := <-w.exited:
			return ws
		case <-stop:
		case <-orphaned.C:
			if os.Getppid() == parent {
				continue
			}
		}
		break
	}
	// SIGTERM to the group the child shares with the watcher (the watcher
	// catches its own copy) and to descendants that left the group.
	syscall.Kill(0, syscall.SIGTERM)
	for _, pid := range descendants(os.Getpid()) {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case ws := <-w.exited:
		return ws
	case <-timer.C:
	}
	w.killAll()
	return <-w.exited
}

// killAll SIGKILLs every running descendant, round after round, until none
// is left: a process forked between two rounds is found in the next one
// (its parent dead, it was reparented to the watcher). Killed processes
// become zombies, which reap collects.
func (w *watcher) killAll() {
	self := os.Getpid()
	for deadline := time.Now().Add(killBound); ; {
		pids := descendants(self)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "tai: processes %v outlived %v of killing\n", pids, killBound)
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond) // SIGKILL lands asynchronously
	}
}

// descendants lists the running (not zombie) processes below root, read
// from /proc in one pass.
func descendants(root int) []int {
	kids := map[int][]int{}
	for _, p := range Processes() {
		if p.State != "Z" && p.State != "X" {
			kids[p.PPID] = append(kids[p.PPID], p.PID)
		}
	}
	var out []int
	for queue := kids[root]; len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, kids[queue[0]]...)
	}
	return out
}

// exitCode passes the child's end on: its exit code, or death by the same
// signal where the watcher can die of it too.
func exitCode(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	switch sig := ws.Signal(); sig {
	case syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP:
		signal.Reset(sig)
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second) // a signal to oneself lands asynchronously
	}
	return 128 + int(ws.Signal())
}
