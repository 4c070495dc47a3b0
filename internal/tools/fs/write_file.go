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
	return tools.Define(t, runner(planWriteFile), plannedConsent(WriteFile, planWriteFile))
}

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func planWriteFile(call tools.Call, a writeFileArgs) (*change, string, error) {
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
func runner[In any](plan func(tools.Call, In) (*change, string, error)) func(context.Context, tools.Call, In) (tools.Result, error) {
	return func(_ context.Context, call tools.Call, a In) (tools.Result, error) {
		c, summary, err := plan(call, a)
		if err != nil {
			return tools.Errorf("%v", err), nil
		}
		if err := commit(call.Env, c, true); err != nil {
			return tools.Errorf("%v", err), nil
		}
		return tools.Text(summary), nil
	}
}
