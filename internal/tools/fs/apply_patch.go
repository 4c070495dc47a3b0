package fs

import (
	"fmt"
	"strings"

	"tai/internal/tools"
)

func planApplyPatch(call tools.Call, a applyPatchArgs) (*change, string, error) {
	sections, err := parsePatch(a.Patch)
	if err != nil {
		return nil, "", err
	}
	p := &patching{env: call.Env, files: map[string]*fileChange{}}
	for _, s := range sections {
		if err := p.apply(s); err != nil {
			return nil, "", fmt.Errorf("%w; no file was changed", err)
		}
	}
	c := &change{tool: ApplyPatch, files: p.changed()}
	if len(c.files) == 0 {
		return nil, "", fmt.Errorf("the patch changes nothing: every file would stay as it is")
	}
	var names []string
	for _, f := range c.files {
		names = append(names, f.name)
	}
	return c, fmt.Sprintf("patched %d files: %s", len(names), strings.Join(names, ", ")), nil
}

type applyPatchArgs struct {
	Patch string `json:"patch" jsonschema:"A unified diff touching one or more files." minLength:"1"`
}

// patching holds the planned state of every file a patch touches, so that
// several sections may change the same file.
type patching struct {
	env   *tools.Env
	files map[string]*fileChange // by absolute path
	order []*fileChange
}

// file returns the planned state of path, loading it on first use.
func (p *patching) file(path string) (*fileChange, error) {
	abs := p.env.Abs(path)
	if f, ok := p.files[abs]; ok {
		return f, nil
	}
	f, err := load(p.env, path)
	if err != nil {
		return nil, err
	}
	f.remove = !f.existed // planned as absent until a section creates it
	p.files[abs] = f
	p.order = append(p.order, f)
	return f, nil
}

// present reports whether the planned state of f has the file.
func present(f *fileChange) bool { return !f.remove }

// changed lists the files whose planned state differs from the disk.
func (p *patching) changed() []*fileChange {
	var out []*fileChange
	for _, f := range p.order {
		if f.existed != present(f) || (present(f) && string(f.old) != string(f.new)) {
			out = append(out, f)
		}
	}
	return out
}

func (p *patching) apply(s *filePatch) error {
	src := s.oldPath
	if src == "" {
		src = s.newPath
	}
	f, err := p.file(src)
	if err != nil {
		return err
	}
	switch {
	case s.oldPath == "" && present(f):
		return fmt.Errorf("the patch creates %s, which already exists", f.name)
	case s.oldPath != "" && !present(f):
		return fmt.Errorf("the patch changes %s, which does not exist", f.name)
	}
	t, err := applyHunks(splitText(f.new), s.hunks, f.name)
	if err != nil {
		return err
	}
	data := t.bytes()
	switch {
	case s.newPath == "":
		if len(data) != 0 {
			return fmt.Errorf("the patch deletes %s but does not remove all of its lines", f.name)
		}
		f.remove, f.new = true, nil
		return nil
	case s.newPath == src:
		f.new, f.remove = data, false
		return nil
	}
	dst, err := p.file(s.newPath) // a rename
	if err != nil {
		return err
	}
	if present(dst) {
		return fmt.Errorf("the patch moves %s to %s, which already exists", f.name, dst.name)
	}
	dst.new, dst.remove, dst.mode = data, false, f.mode
	f.remove, f.new = true, nil
	return nil
}
