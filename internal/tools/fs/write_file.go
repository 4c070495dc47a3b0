package fs

import (
	"context"
	_ "embed"
	"fmt"

	"tai/internal/tools"
)

// WriteFile is the write_file tool's name.
const WriteFile = "write_file"

//go:embed write_file.md
var writeFileDoc string

const writeFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File to write, absolute or relative to the working directory."},
    "content": {"type": "string", "description": "The file's complete new content."}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

func writeFileTool() *tools.Tool {
	t := tool(WriteFile, writeFileDoc, writeFileSchema, nil)
	t.ConsentIn = plannedConsent(WriteFile, planWriteFile)
	t.Run = runner(planWriteFile)
	return t
}

func planWriteFile(call tools.Call) (*change, string, error) {
	var a struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := decode(call, &a); err != nil {
		return nil, "", err
	}
	f, err := load(call.Env, a.Path)
	if err != nil {
		return nil, "", err
	}
	f.new = []byte(a.Content)
	verb := "wrote"
	if !f.existed {
		verb = "created"
	}
	summary := fmt.Sprintf("%s %s (%d lines, %s)", verb, f.name, countLines(f.new), size(int64(len(f.new))))
	return &change{tool: WriteFile, files: []*fileChange{f}}, summary, nil
}

// runner makes the Run of a writing tool: plan the change again against
// the disk as it is now, commit it, and report the plan's summary.
func runner(plan func(tools.Call) (*change, string, error)) func(context.Context, tools.Call) (tools.Result, error) {
	return func(_ context.Context, call tools.Call) (tools.Result, error) {
		c, summary, err := plan(call)
		if err != nil {
			return tools.Errorf("%v", err), nil
		}
		if err := commit(call.Env, c, true); err != nil {
			return tools.Errorf("%v", err), nil
		}
		return tools.Text(summary), nil
	}
}
