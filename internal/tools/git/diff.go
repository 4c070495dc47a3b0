package git

import (
	"context"
	"strconv"

	"tai/internal/tools"
)

func runDiff(ctx context.Context, call tools.Call, a diffArgs) (tools.Result, error) {
	args := []string{"diff", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"}
	if a.Staged {
		args = append(args, "--cached")
	}
	if a.Stat {
		args = append(args, "--stat")
	}
	if a.Context != nil {
		args = append(args, "--unified="+strconv.Itoa(*a.Context))
	}
	return readRevPaths(ctx, call.Env, DiffName, args, a.Rev, a.Paths, "(no differences)"), nil
}

type diffArgs struct {
	Rev    string `json:"rev,omitempty" jsonschema:"Revision to compare with, or a range such as main...HEAD." pattern:"^[^-\\s]\\S*$"`
	Staged bool   `json:"staged,omitempty" jsonschema:"Diff the index (what the next commit holds) instead of the working tree."`
	pathsArg
	Stat    bool `json:"stat,omitempty" jsonschema:"Summarise files and line counts instead of the patch."`
	Context *int `json:"context,omitempty" jsonschema:"Lines of context around each change. Default 3." minimum:"0" maximum:"100"`
}
