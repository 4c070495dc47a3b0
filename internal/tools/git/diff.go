package git

import (
	"context"
	_ "embed"
	"encoding/json"
	"strconv"

	"tai/internal/tools"
)

// DiffName is the git_diff tool's name.
const DiffName = "git_diff"

//go:embed diff.md
var diffDescription string

var diffSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "rev": {"type": "string", ` + revPattern + `, "description": "Revision to compare with, or a range such as main...HEAD."},
    "staged": {"type": "boolean", "description": "Diff the index (what the next commit holds) instead of the working tree."},
    "paths": ` + pathsSchema + `,
    "stat": {"type": "boolean", "description": "Summarise files and line counts instead of the patch."},
    "context": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Lines of context around each change. Default 3."}
  },
  "additionalProperties": false
}`)

type diffArgs struct {
	Rev     string   `json:"rev"`
	Staged  bool     `json:"staged"`
	Paths   []string `json:"paths"`
	Stat    bool     `json:"stat"`
	Context *int     `json:"context"`
}

// Diff returns the git_diff tool. It only reads, so it is safe.
func Diff() *tools.Tool {
	return tools.Define(tools.Tool{
		Name:        DiffName,
		Description: diffDescription,
		Schema:      diffSchema,
		Group:       Group,
		Safe:        tools.AlwaysSafe,
	}, runDiff)
}

func runDiff(ctx context.Context, call tools.Call, a diffArgs) (tools.Result, error) {
	err := checkRev("rev", a.Rev)
	if err == nil {
		err = checkPaths(a.Paths)
	}
	if err != nil {
		return tools.Errorf("%s: %v", DiffName, err), nil
	}
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
	args = append(args, "--end-of-options")
	if a.Rev != "" {
		args = append(args, a.Rev)
	}
	out, err := run(ctx, call.Env, readTimeout, "", withPaths(args, a.Paths)...)
	return result(DiffName, out, err, "(no differences)"), nil
}
