package fs

import (
	_ "embed"
	"fmt"

	"tai/internal/tools"
)

// MultiEdit is the multi_edit tool's name.
const MultiEdit = "multi_edit"

//go:embed multi_edit.md
var multiEditDoc string

const multiEditSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File to edit, absolute or relative to the working directory."},
    "edits": {
      "type": "array",
      "minItems": 1,
      "description": "Replacements, applied in order.",
      "items": {
        "type": "object",
        "properties": {
          "old_string": {"type": "string", "minLength": 1, "description": "Exact text to replace."},
          "new_string": {"type": "string", "description": "Text to put in its place."},
          "replace_all": {"type": "boolean", "description": "Replace every occurrence. Default false."}
        },
        "required": ["old_string", "new_string"],
        "additionalProperties": false
      }
    }
  },
  "required": ["path", "edits"],
  "additionalProperties": false
}`

func multiEditTool() *tools.Tool {
	t := tool(MultiEdit, multiEditDoc, multiEditSchema, nil)
	return tools.Define(t, runner(planMultiEdit), plannedConsent(MultiEdit, planMultiEdit))
}

type multiEditArgs struct {
	Path  string        `json:"path"`
	Edits []replacement `json:"edits"`
}

func planMultiEdit(call tools.Call, a multiEditArgs) (*change, string, error) {
	f, err := loadExisting(call.Env, a.Path)
	if err != nil {
		return nil, "", err
	}
	total := 0
	for i, r := range a.Edits {
		out, lines, err := r.apply(f.new, f.name)
		if err != nil {
			return nil, "", fmt.Errorf("edit %d of %d: %w; no edit was made", i+1, len(a.Edits), err)
		}
		f.new = out
		total += len(lines)
	}
	summary := fmt.Sprintf("edited %s: %d edits, %d replacements", f.name, len(a.Edits), total)
	return &change{tool: MultiEdit, files: []*fileChange{f}}, summary, nil
}
