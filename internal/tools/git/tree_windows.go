package git

import (
	"os/exec"
	"sync/atomic"

	"tai/internal/jobobject"
)

// runTree runs cmd in a Job Object of its own, all of which cancelling
// ends, and which ends with git in any case: what git starts (a credential
// helper, ssh) are its children.
func runTree(cmd *exec.Cmd) error {
	var job atomic.Pointer[jobobject.Job]
	cmd.Cancel = func() error {
		if j := job.Load(); j != nil {
			return j.Kill()
		}
		return cmd.Process.Kill()
	}
	j, err := jobobject.Start(cmd)
	if err != nil {
		return err
	}
	job.Store(j)
	defer j.Close()
	return cmd.Wait()
}
