package fs

import (
	"context"
	"fmt"

	"tai/internal/tools"
)

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

type writeFileArgs struct {
	Path    string `json:"path" jsonschema:"File to write, absolute or relative to the working directory." minLength:"1"`
	Content string `json:"content" jsonschema:"The file's complete new content."`
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
