package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// startTimeout bounds one start; an agent that takes longer has failed.
const startTimeout = time.Minute

// stopGrace is how long an agent stopped after its first model request has
// to exit before it is killed.
const stopGrace = 5 * time.Second

// sample is one measured start.
type sample struct {
	wall   time.Duration
	maxRSS int64 // bytes, of the largest process in the tree
}

// becomeSubreaper makes the agents' orphaned descendants (a wrapper's
// native child, killed with it) this process's children, so that their
// resource usage is waited for and counted too.
func becomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// runOnce starts a in mode m and returns its wall time: until it exits
// for --version and --help, until the fake receives its first model
// request for modeFirst (then the agent is stopped). The agent must exit
// with status 0 in the first two modes.
func runOnce(a *agent, m mode, f *fake) (sample, error) {
	args, env := append([]string(nil), a.argv...), a.env
	switch m {
	case modeFirst:
		extra, extraEnv := a.oneShot(f.url, "Say hello.")
		args = append(args, extra...)
		env = append(append([]string(nil), env...), extraEnv...)
		f.arm()
	default:
		args = append(args, string(m))
	}
	out, err := os.Create(filepath.Join(a.home, "last-run.log"))
	if err != nil {
		return sample{}, err
	}
	defer out.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return sample{}, err
	}
	defer devnull.Close()

	t0 := time.Now()
	p, err := os.StartProcess(args[0], args, &os.ProcAttr{
		Dir: a.home, Env: env, Files: []*os.File{devnull, out, out},
		Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		return sample{}, err
	}
	pid := p.Pid
	p.Release()
	exited := make(chan exit, 1)
	go func() { exited <- wait(pid) }()

	var wall time.Duration
	var first exit
	var failure error
	timeout := time.NewTimer(startTimeout)
	defer timeout.Stop()
	select {
	case first = <-exited:
		wall = time.Since(t0)
		switch {
		case m == modeFirst:
			failure = fmt.Errorf("exited (%v) before any model request", first.status)
		case first.err != nil:
			failure = first.err
		case !first.status.Exited() || first.status.ExitStatus() != 0:
			failure = fmt.Errorf("exited with %v", first.status)
		}
	case at := <-f.first:
		wall = at.Sub(t0)
		first = stop(pid, exited)
	case <-timeout.C:
		failure = fmt.Errorf("no result within %v", startTimeout)
		syscall.Kill(-pid, syscall.SIGKILL)
		first = <-exited
	}
	rss := max(first.maxRSS, reapRest(pid))
	if failure != nil {
		return sample{}, fmt.Errorf("%s %s: %w; its output ends: %s", a.name, m, failure, tail(out.Name()))
	}
	return sample{wall: wall, maxRSS: rss}, nil
}

// stop ends an agent that is waiting for its model's answer: SIGTERM to
// its process group, as a person's kill would send, and SIGKILL if it has
// not exited within stopGrace. SIGKILL at once leaves some agents' state
// half-written (Gemini CLI's next start then stalls for seconds).
func stop(pid int, exited <-chan exit) exit {
	syscall.Kill(-pid, syscall.SIGTERM)
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case e := <-exited:
		return e
	case <-grace.C:
		syscall.Kill(-pid, syscall.SIGKILL)
		return <-exited
	}
}

// exit is what wait4 told of one process.
type exit struct {
	status syscall.WaitStatus
	maxRSS int64
	err    error
}

func wait(pid int) exit {
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		_, err := syscall.Wait4(pid, &ws, 0, &ru)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		return exit{status: ws, maxRSS: ru.Maxrss * 1024, err: err}
	}
}

// reapRest kills what is left of the process group of pid and waits for
// every remaining child (descendants orphaned to this subreaper included),
// returning the largest peak resident set among them.
func reapRest(pid int) int64 {
	syscall.Kill(-pid, syscall.SIGKILL)
	var peak int64
	deadline := time.Now().Add(2 * time.Second)
	for {
		var ws syscall.WaitStatus
		var ru syscall.Rusage
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, &ru)
		switch {
		case errors.Is(err, syscall.ECHILD):
			return peak
		case err != nil && !errors.Is(err, syscall.EINTR):
			log.Printf("waiting for leftover processes: %v", err)
			return peak
		case got > 0:
			peak = max(peak, ru.Maxrss*1024)
		case time.Now().After(deadline):
			// Left the process group (setsid) and still running.
			killChildren()
			deadline = time.Now().Add(2 * time.Second)
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// killChildren kills every process whose parent is this one.
func killChildren() {
	me := strconv.Itoa(os.Getpid())
	dirs, _ := filepath.Glob("/proc/[0-9]*/status")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PPid:"); ok && strings.TrimSpace(v) == me {
				if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d))); err == nil {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
	}
}

// tail is the last line of an agent's output, quoted (so that no control
// character reaches the terminal) and cut, for an error message.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := lines[len(lines)-1]
	if len(last) > 300 {
		last = last[:300] + "…"
	}
	return strconv.Quote(last)
}
