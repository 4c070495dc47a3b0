package git

import (
	"context"
	_ "embed"
	"encoding/json"

	"tai/internal/tools"
)

// ShowName is the git_show tool's name.
const ShowName = "git_show"

//go:embed show.md
var showDescription string

var showSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "rev": {"type": "string", ` + revPattern + `, "description": "Commit to show, or REV:PATH for a file at a revision. Default HEAD."},
    "paths": ` + pathsSchema + `,
    "stat": {"type": "boolean", "description": "Summarise files and line counts instead of the patch."}
  },
  "additionalProperties": false
}`)

type showArgs struct {
	Rev   string   `json:"rev"`
	Paths []string `json:"paths"`
	Stat  bool     `json:"stat"`
}

// Show returns the git_show tool. It only reads, so it is safe.
func Show() *tools.Tool {
	return tools.Define(tools.Tool{
		Name:        ShowName,
		Description: showDescription,
		Schema:      showSchema,
		Group:       Group,
		Safe:        tools.AlwaysSafe,
	}, runShow)
}

func runShow(ctx context.Context, call tools.Call, a showArgs) (tools.Result, error) {
	err := checkRev("rev", a.Rev)
	if err == nil {
		err = checkPaths(a.Paths)
	}
	if err != nil {
		return tools.Errorf("%s: %v", ShowName, err), nil
	}
	rev := a.Rev
	if rev == "" {
		rev = "HEAD"
	}
	args := []string{"show", "--no-ext-diff", "--no-textconv"}
	if a.Stat {
		args = append(args, "--stat")
	}
	args = append(args, "--end-of-options", rev)
	if len(a.Paths) > 0 {
		args = withPaths(args, a.Paths)
	}
	out, err := run(ctx, call.Env, readTimeout, "", args...)
	return result(ShowName, out, err, "(empty)"), nil
}
