//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// Arg is the helper's first argument (Linux only).
const Arg = "__sandbox"

// Main runs nothing here: there is no helper.
func Main(args []string) (int, bool) { return 0, false }

// Wrap cannot confine here yet: see docs/reliability.md, "The sandbox".
func Wrap(cmd *exec.Cmd, p Policy) error {
	return fmt.Errorf("%w on %s yet", ErrUnavailable, runtime.GOOS)
}

// Probe says what is missing.
func Probe() Status {
	return Status{Why: "tai confines commands on Linux and macOS only (Windows restricted tokens are not done)"}
}

// Unavailable says why the sandbox cannot confine here.
func Unavailable() string { return Probe().Why }

// CanProxy is false: there is no network of a command's own here.
func CanProxy() bool { return false }
