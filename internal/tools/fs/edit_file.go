package fs

import (
	"fmt"

	"tai/internal/tools"
)

func planEditFile(call tools.Call, a editFileArgs) (*change, string, error) {
	f, err := loadExisting(call.Env, a.Path)
	if err != nil {
		return nil, "", err
	}
	out, lines, err := a.replacement.apply(f.old, f.name)
	if err != nil {
		return nil, "", err
	}
	f.new = out
	summary := fmt.Sprintf("edited %s: replaced %s", f.name, occurrences(lines))
	return &change{tool: EditFile, files: []*fileChange{f}}, summary, nil
}

type editFileArgs struct {
	Path string `json:"path" jsonschema:"File to edit, absolute or relative to the working directory." minLength:"1"`
	replacement
}

// loadExisting is load for tools that change a file that must exist.
func loadExisting(env *tools.Env, path string) (*fileChange, error) {
	f, err := load(env, path)
	if err != nil {
		return nil, err
	}
	if !f.existed {
		return nil, fmt.Errorf("%v (to create a file, use write_file)", pathError(env, f.path, errNotExist))
	}
	return f, nil
}
