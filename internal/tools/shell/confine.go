package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"tai/internal/sandbox"
	"tai/internal/tools"
)

// A command the shell tool runs (in the foreground, as a job, or as a
// REPL !command) is confined by the host's sandbox (tools.Env.Sandbox):
// it reads all but the protected paths, writes the workspace (never its
// .git/hooks or .git/config), the temporary directory and the package
// caches, and has no network; in read-only mode it writes only a private
// temporary directory. A command the model asks to run unsandboxed, or
// any command where the kernel cannot confine, asks the person first
// (tools.Consent.Unconfined). See docs/reliability.md, "The sandbox".

// unconfined reports whether a call of the shell would run outside a
// sandbox the host has.
func unconfined(env *tools.Env, a shellArgs) bool {
	if env == nil || env.Sandbox == nil || env.Sandbox.Mode == sandbox.Off {
		return false
	}
	return a.Unsandboxed || env.Sandbox.Unavailable != ""
}

// confinement is the policy of a command in env, with a private
// temporary directory to remove once it ended ("" when none); nil policy
// when it runs unconfined.
func confinement(env *tools.Env, a shellArgs) (*sandbox.Policy, string, error) {
	sb := env.Sandbox
	if sb == nil || sb.Mode == sandbox.Off || a.Unsandboxed || sb.Unavailable != "" {
		return nil, "", nil
	}
	tmp, private := os.TempDir(), ""
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	protected := sandbox.Protected(sb.Home, sb.TaiHome)
	holds := slices.ContainsFunc(protected, func(p string) bool { rel, err := filepath.Rel(tmp, p); return err == nil && filepath.IsLocal(rel) })
	if sb.Mode == sandbox.ReadOnly || holds {
		// A temporary directory of its own: read-only mode writes
		// nowhere else, and a system one holding a protected path (tai's
		// home in a test) cannot be granted whole.
		d, err := os.MkdirTemp(tmp, "tai-sandbox-")
		if err != nil {
			return nil, "", fmt.Errorf("sandbox: a private temporary directory: %w", err)
		}
		tmp, private = d, d
	}
	dirs := append([]string{env.Dir}, env.Roots...)
	p := sandbox.Workspace(sb.Mode, dirs, sb.Home, sb.TaiHome, tmp)
	return &p, private, nil
}

// unavailableLine says why a command could not be confined.
func unavailableLine(err error) string {
	if errors.Is(err, sandbox.ErrUnavailable) {
		return fmt.Sprintf("%v; the command did not run. Run tai with --sandbox off to run commands unconfined", err)
	}
	return err.Error()
}
