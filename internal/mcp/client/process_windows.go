package client

import (
	"os/exec"
	"syscall"
	"time"

	"tai/internal/jobobject"
)

// processTree is the Job Object holding the server and all it starts.
type processTree struct{ job *jobobject.Job }

// startTree starts cmd in a Job Object of its own. An npx entry, which
// runs as cmd /c npx … (see docs/mcp.md), gets a command line that cmd.exe
// cannot read as more than one command (see [cmdLine]).
func startTree(cmd *exec.Cmd, _ time.Duration) (processTree, error) {
	line, ok, err := cmdLine(cmd.Args)
	if err != nil {
		return processTree{}, err
	}
	if ok {
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line}
	}
	job, err := jobobject.Start(cmd)
	return processTree{job}, err
}

// close shuts the server down in mcp.md's order: close stdin and wait,
// then CTRL_BREAK to its console process group (Windows has no SIGTERM)
// and wait, then end the job. The job is ended in any case, so nothing
// the server started outlives the connection.
func (t *stdioTransport) close() error {
	t.closeOnce.Do(func() {
		t.lose(ErrClosed)
		t.stdin.Close()
		job := t.tree.job
		if !t.exitedWithin(t.grace) {
			job.Interrupt()
			if !t.exitedWithin(t.grace) {
				job.Kill()
				<-t.exited
			}
		}
		if err := job.Kill(); err != nil {
			t.log.note("ending the server's job: " + err.Error())
		}
		job.Close()
		t.release()
	})
	return nil
}
