package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"tai/internal/gitenv"
	"tai/internal/sandbox"
	"tai/internal/secretenv"
)

// straggleGrace bounds how long output is still read after the shell exits
// and its process group is killed: a process that left the group (setsid,
// nohup …) may hold the output pipe open forever.
const straggleGrace = 2 * time.Second

// process is a command line run by the shell (/bin/sh -c; on Windows see
// [findShell]) in a process tree of its own (a process group; a Job Object
// on Windows), with stdout and stderr joined on one pipe. tai's secret
// environment variables are not passed on.
type process struct {
	cmd    *exec.Cmd
	box    *confined // its sandbox, nil when it runs unconfined
	tree   processTree
	out    *os.File      // read end of the output pipe
	stdin  *os.File      // write end of the input pipe; nil unless asked for
	exited chan struct{} // closed once the shell has exited and been reaped
}

// startProcess starts line in dir, confined by box unless it is nil
// (which it releases when the process is closed, or now when it cannot
// start). With input, the
// process reads a pipe (see process.stdin); otherwise it reads /dev/null.
// A read-only line that runs git gets gitenv's protections (see
// [readOnlyGit]).
func startProcess(dir, line string, input bool, box *confined) (p *process, err error) {
	defer func() {
		if err != nil {
			box.release()
		}
	}()
	if dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("working directory %s is not a directory", dir)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := shellCommand(line)
	cmd.Dir = dir
	cmd.Env = secretenv.Filter(os.Environ())
	if readOnlyGit(line) {
		if cmd.Env, err = gitenv.Env(context.Background(), dir, cmd.Env); err != nil {
			r.Close()
			w.Close()
			return nil, fmt.Errorf("git cannot run read-only here: %w", err)
		}
	}
	if box != nil && box.private != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+box.private)
	}
	if box != nil {
		if err := sandbox.Wrap(cmd, box.policy); err != nil {
			r.Close()
			w.Close()
			return nil, err
		}
	}
	cmd.Stdout, cmd.Stderr = w, w
	var inR, inW *os.File
	if input {
		if inR, inW, err = os.Pipe(); err != nil {
			r.Close()
			w.Close()
			return nil, err
		}
		cmd.Stdin = inR
	}
	tree, err := startTree(cmd)
	if err != nil {
		err = fmt.Errorf("cannot start %s: %w", cmd.Path, err)
	}
	if box != nil && box.proxy != nil {
		box.proxy.Started()
	}
	w.Close()
	if inR != nil {
		inR.Close()
	}
	if err != nil {
		r.Close()
		if inW != nil {
			inW.Close()
		}
		return nil, err
	}
	p = &process{cmd: cmd, box: box, tree: tree, out: r, stdin: inW, exited: make(chan struct{})}
	go func() {
		cmd.Wait() // the exit status is read from cmd.ProcessState
		close(p.exited)
	}()
	return p, nil
}

// kill ends the whole process tree at once (SIGKILL to the group).
func (p *process) kill() { p.tree.kill() }

// pump copies the output to sink until the pipe is drained. Call finish
// once the shell has exited to end it.
func (p *process) pump(sink func([]byte)) {
	buf := make([]byte, 32<<10)
	for {
		n, err := p.out.Read(buf)
		if n > 0 {
			sink(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// finish kills what the shell left running in its group and gives the
// output pipe straggleGrace to drain.
func (p *process) finish() {
	p.kill()
	p.out.SetReadDeadline(time.Now().Add(straggleGrace))
}

// close releases the pipes and the tree.
func (p *process) close() {
	p.tree.release()
	p.out.Close()
	p.box.release()
	if p.stdin != nil {
		p.stdin.Close()
	}
}

// status describes how the shell ended.
func (p *process) status() string {
	st := p.cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "terminated by signal: " + ws.Signal().String()
	}
	return "exit code " + strconv.Itoa(st.ExitCode())
}
