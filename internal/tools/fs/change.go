package fs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"tai/internal/textdiff"
	"tai/internal/tools"
)

// fileChange is the planned new state of one file.
type fileChange struct {
	path    string // absolute
	name    string // as results show it
	existed bool
	old     []byte
	mode    iofs.FileMode
	new     []byte
	remove  bool // delete the file instead of writing new
}

// change is what one call of a writing tool will do. It is planned
// without touching the disk, shown on the approval screen, then committed.
type change struct {
	tool   string
	files  []*fileChange
	rename *rename // move_path's change instead of files
}

// rename moves a file or directory.
type rename struct {
	from, to         string // absolute
	fromName, toName string
}

// load plans a change to path starting from the file as it is now; a file
// that does not exist starts empty.
func load(env *tools.Env, path string) (*fileChange, error) {
	fc := &fileChange{path: env.Abs(path), mode: 0o644}
	fc.name = env.Rel(fc.path)
	data, mode, err := readSmall(fc.path, fc.name)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return fc, nil
	case err != nil:
		return nil, editError(env, fc.path, err)
	}
	fc.existed, fc.old, fc.new, fc.mode = true, data, data, mode
	return fc, nil
}

// editError puts file system errors in the words of pathError and passes
// the editing tools' own errors through.
func editError(env *tools.Env, abs string, err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pathError(env, abs, err)
	}
	return err
}

// commit writes every file of c, each atomically, recording the old states
// in the undo history first. If a write fails, the files already written
// are put back, so the change lands whole or not at all.
func commit(env *tools.Env, c *change, record bool) error {
	if r := c.rename; r != nil {
		if err := os.MkdirAll(filepath.Dir(r.to), 0o755); err != nil {
			return fmt.Errorf("creating the directory of %s: %w", r.toName, errors.Unwrap(err))
		}
		if err := os.Rename(r.from, r.to); err != nil {
			return fmt.Errorf("moving %s to %s: %w", r.fromName, r.toName, errors.Unwrap(err))
		}
	}
	var done []*fileChange
	for _, f := range c.files {
		var err error
		if f.remove {
			err = removeFile(f.path)
		} else {
			err = writeAtomic(f.path, f.new, f.mode)
		}
		if err != nil {
			rollback(done)
			return fmt.Errorf("%s: nothing was changed: %w", f.name, err)
		}
		done = append(done, f)
	}
	if record {
		historyOf(env).push(c)
	}
	return nil
}

// rollback restores files to their state before a failed commit.
func rollback(done []*fileChange) {
	for _, f := range done {
		if f.existed {
			_ = writeAtomic(f.path, f.old, f.mode)
		} else {
			_ = removeFile(f.path)
		}
	}
}

// consentLines caps the diff on the approval screen.
const consentLines = 400

// consent describes c for the approval screen: one title line, then for
// each file what happens to it and a unified diff.
func (c *change) consent(title string) tools.Consent {
	var b strings.Builder
	if r := c.rename; r != nil {
		fmt.Fprintf(&b, "move %s to %s\n", r.fromName, r.toName)
	}
	for _, f := range c.files {
		from, to := "a/"+f.name, "b/"+f.name
		switch {
		case !f.existed:
			fmt.Fprintf(&b, "create %s (%s)\n", f.name, size(int64(len(f.new))))
			from = "/dev/null"
		case f.remove:
			fmt.Fprintf(&b, "delete %s (%s)\n", f.name, size(int64(len(f.old))))
			to = "/dev/null"
		default:
			fmt.Fprintf(&b, "modify %s\n", f.name)
		}
		var newData []byte
		if !f.remove {
			newData = f.new
		}
		if isBinary(f.old) || isBinary(newData) {
			fmt.Fprintf(&b, "(binary content: %s before, %s after)\n", size(int64(len(f.old))), size(int64(len(newData))))
			continue
		}
		b.WriteString(textdiff.Unified(from, to, f.old, newData))
	}
	return tools.Consent{Title: title, Detail: capLines(b.String(), consentLines)}
}

// target names what c changes, for a title line.
func (c *change) target() string {
	var names []string
	if r := c.rename; r != nil {
		names = append(names, r.fromName+" -> "+r.toName)
	}
	for i, f := range c.files {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(c.files)-i))
			break
		}
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}

// capLines keeps the first n lines of s and counts the rest.
func capLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n+1 {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("… %d more lines of diff not shown\n", len(lines)-n-1)
}

// plannedConsent is the Consent rule of a writing tool, from its planner.
// A call that cannot be planned says why; it will fail the same way.
func plannedConsent[In any](name string, plan func(tools.Call, In) (*change, string, error)) tools.Rule[In] {
	return tools.ConsentBy(func(call tools.Call, a In) tools.Consent {
		c, _, err := plan(call, a)
		if err != nil {
			return tools.Consent{Title: name, Detail: "this call will fail: " + err.Error()}
		}
		con := c.consent(name + ": " + c.target())
		con.Grants = c.editGrants(call.Env)
		return con
	})
}

// editGrants is what "always" may store for c: edits inside the working
// directory, when every file c touches lies there, outside .git (whose
// hooks and config would run code later) and outside every sensitive place.
// A change reaching further offers no "always".
func (c *change) editGrants(env *tools.Env) []tools.Grant {
	if env == nil || env.Dir == "" {
		return nil
	}
	root := tools.Resolve(env.Dir)
	paths := make([]string, 0, len(c.files)+2)
	for _, f := range c.files {
		paths = append(paths, f.path)
	}
	if r := c.rename; r != nil {
		paths = append(paths, r.from, r.to)
	}
	for _, p := range paths {
		real := tools.Resolve(p)
		if !tools.Within(real, root) || inGitDir(real) || tools.Sensitive(p, env.TaiHome()) != "" {
			return nil
		}
	}
	return []tools.Grant{{Kind: tools.GrantEdit, Subject: root}}
}

// inGitDir reports a path inside any repository's .git directory.
func inGitDir(p string) bool {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// exists reports whether anything is at path, without following a final
// symlink.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
