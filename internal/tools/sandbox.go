package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"tai/internal/sandbox"
)

// Confines reports whether sb confines commands: it is set, not off, and
// the kernel can.
func (sb *Sandbox) Confines() bool {
	return sb != nil && sb.Mode != sandbox.Off && sb.Unavailable == ""
}

// Policy is the sandbox policy of a command whose workspace is dirs (the
// working directory and the --add-dir ones), with a private temporary
// directory to remove once it ended ("" when none): read-only mode writes
// nowhere else, and a system temporary directory holding a protected path
// (tai's home, in a test) cannot be granted whole.
func (sb *Sandbox) Policy(dirs []string) (p sandbox.Policy, private string, err error) {
	tmp := os.TempDir()
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	protected := sandbox.Protected(sb.Home, sb.TaiHome)
	holds := slices.ContainsFunc(protected, func(p string) bool { rel, err := filepath.Rel(tmp, p); return err == nil && filepath.IsLocal(rel) })
	if sb.Mode == sandbox.ReadOnly || holds {
		d, err := os.MkdirTemp(tmp, "tai-sandbox-")
		if err != nil {
			return sandbox.Policy{}, "", fmt.Errorf("sandbox: a private temporary directory: %w", err)
		}
		tmp, private = d, d
	}
	return sandbox.Workspace(sb.Mode, dirs, sb.Home, sb.TaiHome, tmp), private, nil
}
