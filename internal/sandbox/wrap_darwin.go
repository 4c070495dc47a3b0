package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// Arg is the helper's first argument (Linux only: macOS confines with
// sandbox-exec).
const Arg = "__sandbox"

// Main runs nothing here: there is no helper.
func Main(args []string) (int, bool) { return 0, false }

// sandboxExec is macOS's Seatbelt front end.
const sandboxExec = "/usr/bin/sandbox-exec"

// Wrap rewrites cmd, not yet started, to run under sandbox-exec with p's
// Seatbelt profile (see seatbelt). It fails where sandbox-exec is
// missing, before anything runs. A proxy is not offered here: with the
// network off, a command has none.
func Wrap(cmd *exec.Cmd, p Policy) error {
	if st := Probe(); !st.Confines {
		return fmt.Errorf("%w: %s", ErrUnavailable, st.Why)
	}
	path, err := prepare(cmd, p)
	if err != nil {
		return err
	}
	profile, params := seatbelt(p)
	args := []string{"sandbox-exec"}
	for _, kv := range params {
		args = append(args, "-D", kv)
	}
	args = append(args, "-p", profile, "--", path)
	cmd.Args = append(args, cmd.Args[1:]...)
	cmd.Path = sandboxExec
	return nil
}

var (
	probeOnce sync.Once
	probed    Status
)

// Probe finds whether sandbox-exec is there.
func Probe() Status {
	probeOnce.Do(func() {
		if _, err := os.Stat(sandboxExec); err != nil {
			probed.Why = "no " + sandboxExec + " (Seatbelt)"
			return
		}
		probed.Confines, probed.What = true, "Seatbelt (sandbox-exec); the network is off, with no proxy"
	})
	return probed
}

// Unavailable says why the sandbox cannot confine here, "" when it can.
func Unavailable() string { return Probe().Why }

// CanProxy is false: a command has no network of its own here.
func CanProxy() bool { return false }
