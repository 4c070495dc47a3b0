package fs

import (
	"context"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"

	"tai/internal/tools"
)

// target checks what a delete_path call would remove.
func (a deletePathArgs) target(env *tools.Env) (string, iofs.FileInfo, error) {
	abs := env.Abs(a.Path)
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", nil, pathError(env, abs, err)
	}
	if env != nil && env.Dir != "" && within(env.Dir, abs) {
		return "", nil, fmt.Errorf("refusing to delete the working directory or a directory containing it (%s)", abs)
	}
	if fi.IsDir() && !a.Recursive {
		if entries, err := os.ReadDir(abs); err != nil || len(entries) > 0 {
			return "", nil, fmt.Errorf("%s is a directory that is not empty; set recursive to delete it with everything in it", env.Rel(abs))
		}
	}
	return abs, fi, nil
}

type deletePathArgs struct {
	Path      string `json:"path" jsonschema:"File or directory to delete, absolute or relative to the working directory." minLength:"1"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"Required to delete a directory that is not empty, with everything in it. Default false."`
}

// planFileDelete plans the deletion of a file or link as a change, so it
// can be shown as a diff and undone. A file over editCap is not kept.
func planFileDelete(env *tools.Env, abs string, fi iofs.FileInfo) (*change, bool) {
	f := &fileChange{path: abs, name: env.Rel(abs), existed: true, mode: fi.Mode(), remove: true}
	if !fi.Mode().IsRegular() || fi.Size() > editCap {
		return &change{tool: DeletePath, files: []*fileChange{f}}, false
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return &change{tool: DeletePath, files: []*fileChange{f}}, false
	}
	f.old = data
	return &change{tool: DeletePath, files: []*fileChange{f}}, true
}

func consentDeletePath(call tools.Call, a deletePathArgs) tools.Consent {
	abs, fi, err := a.target(call.Env)
	if err != nil {
		return tools.Consent{Title: DeletePath, Detail: "this call will fail: " + err.Error()}
	}
	name := call.Env.Rel(abs)
	if fi.IsDir() {
		return tools.Consent{Title: DeletePath + ": " + name + "/",
			Detail: fmt.Sprintf("delete the directory %s and %s inside it; this cannot be undone", name, countTree(abs))}
	}
	c, undoable := planFileDelete(call.Env, abs, fi)
	con := c.consent(DeletePath + ": " + name)
	if !undoable {
		con.Detail = fmt.Sprintf("delete %s (%s); this cannot be undone", name, size(fi.Size()))
	}
	return con
}

func runDeletePath(_ context.Context, call tools.Call, a deletePathArgs) (tools.Result, error) {
	abs, fi, err := a.target(call.Env)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	name := call.Env.Rel(abs)
	if fi.IsDir() {
		if err := os.RemoveAll(abs); err != nil {
			return tools.Errorf("deleting %s: %v; part of it may be gone", name, err), nil
		}
		return tools.Text(fmt.Sprintf("deleted the directory %s", name)), nil
	}
	c, undoable := planFileDelete(call.Env, abs, fi)
	if err := commit(call.Env, c, undoable); err != nil {
		return tools.Errorf("%v", err), nil
	}
	if !undoable {
		return tools.Text(fmt.Sprintf("deleted %s (not kept for undo_edit)", name)), nil
	}
	return tools.Text(fmt.Sprintf("deleted %s", name)), nil
}

// countTree describes a directory's content for the approval screen,
// counting at most 100,000 entries.
func countTree(dir string) string {
	const most = 100_000
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, _ iofs.DirEntry, err error) error {
		if n++; n > most {
			return filepath.SkipAll
		}
		return nil
	})
	if n > most {
		return fmt.Sprintf("over %d entries", most)
	}
	return fmt.Sprintf("%d entries", n-1)
}
