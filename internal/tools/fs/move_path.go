package fs

import (
	"fmt"
	"os"

	"tai/internal/tools"
)

func planMovePath(call tools.Call, a movePathArgs) (*change, string, error) {
	r := &rename{from: call.Env.Abs(a.From), to: call.Env.Abs(a.To)}
	r.fromName, r.toName = call.Env.Rel(r.from), call.Env.Rel(r.to)
	if _, err := os.Lstat(r.from); err != nil {
		return nil, "", pathError(call.Env, r.from, err)
	}
	switch {
	case r.from == r.to:
		return nil, "", fmt.Errorf("from and to are the same path: %s", r.fromName)
	case exists(r.to):
		return nil, "", fmt.Errorf("%s already exists; move_path does not overwrite (delete it first if that is intended)", r.toName)
	case within(r.to, r.from):
		return nil, "", fmt.Errorf("cannot move %s into itself (%s)", r.fromName, r.toName)
	}
	return &change{tool: MovePath, rename: r}, fmt.Sprintf("moved %s to %s", r.fromName, r.toName), nil
}

type movePathArgs struct {
	From string `json:"from" jsonschema:"File or directory to move." minLength:"1"`
	To   string `json:"to" jsonschema:"Its new path; must not exist yet." minLength:"1"`
}
