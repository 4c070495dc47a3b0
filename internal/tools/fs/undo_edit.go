package fs

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
)

func runUndoEdit(_ context.Context, call tools.Call, a undoArgs) (tools.Result, error) {
	_, summary, err := undo(call, a, false)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	return tools.Text(summary), nil
}

type undoArgs struct {
	Path string `json:"path,omitempty" jsonschema:"Undo the last change to this file only. Default: the last change of all." minLength:"1"`
}

func undo(call tools.Call, a undoArgs, preview bool) (*change, string, error) {
	c, summary, err := historyOf(call.Env).undo(call.Env, a.Path, preview)
	if err != nil {
		return nil, "", err
	}
	var names []string
	if r := c.rename; r != nil {
		names = append(names, "moved "+r.fromName+" back to "+r.toName)
	}
	for _, f := range c.files {
		switch {
		case f.remove:
			names = append(names, "removed "+f.name)
		case !f.existed:
			names = append(names, "restored "+f.name)
		default:
			names = append(names, "reverted "+f.name)
		}
	}
	return c, fmt.Sprintf("%s: %s", summary, strings.Join(names, ", ")), nil
}
