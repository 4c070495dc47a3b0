package fs

import (
	"fmt"

	"tai/internal/tools"
)

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

type multiEditArgs struct {
	Path  string        `json:"path" jsonschema:"File to edit, absolute or relative to the working directory." minLength:"1"`
	Edits []replacement `json:"edits" jsonschema:"Replacements, applied in order." minItems:"1"`
}
