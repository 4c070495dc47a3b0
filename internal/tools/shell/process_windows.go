package shell

import (
	"errors"
	"os"
	"os/exec"
	"sync"

	"tai/internal/jobobject"
)

// processTree is the Job Object holding the shell and all it starts.
type processTree struct{ job *jobobject.Job }

// shell is the interpreter found on first use.
var shell = sync.OnceValue(func() interpreter {
	return findShell(exec.LookPath, func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && !fi.IsDir()
	}, os.Getenv)
})

// shellCommand is line for Git Bash's bash, or else PowerShell.
func shellCommand(line string) *exec.Cmd {
	sh := shell()
	return exec.Command(sh.path, append(sh.args, line)...)
}

// startTree starts cmd in a Job Object of its own.
func startTree(cmd *exec.Cmd) (processTree, error) {
	job, err := jobobject.Start(cmd)
	return processTree{job}, err
}

func (t processTree) kill() { t.job.Kill() }

func (t processTree) release() { t.job.Close() }

// shellUnderstood says why nothing is read-only under PowerShell: tai's
// read-only rules parse sh, and PowerShell is not sh.
func shellUnderstood() error {
	if shell().kind == powerShell {
		return errors.New("tai has no read-only rules for PowerShell, so every PowerShell command asks")
	}
	return nil
}

// shellNote tells the model which shell runs its commands.
func shellNote() string { return "\n\nOn this machine commands run in " + shell().String() + "." }
