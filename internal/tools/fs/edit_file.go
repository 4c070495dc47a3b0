package fs

import (
	_ "embed"
	"fmt"

	"tai/internal/tools"
)

// EditFile is the edit_file tool's name.
const EditFile = "edit_file"

//go:embed edit_file.md
var editFileDoc string

const editFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File to edit, absolute or relative to the working directory."},
    "old_string": {"type": "string", "minLength": 1, "description": "Exact text to replace."},
    "new_string": {"type": "string", "description": "Text to put in its place."},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one. Default false."}
  },
  "required": ["path", "old_string", "new_string"],
  "additionalProperties": false
}`

func editFileTool() *tools.Tool {
	t := tool(EditFile, editFileDoc, editFileSchema, nil)
	return tools.Define(t, runner(planEditFile), plannedConsent(EditFile, planEditFile))
}

type editFileArgs struct {
	Path string `json:"path"`
	replacement
}

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
