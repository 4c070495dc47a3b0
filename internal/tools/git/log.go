package git

import (
	"cmp"
	"context"
	"strconv"

	"tai/internal/tools"
)

const defaultLimit = 20

func runLog(ctx context.Context, call tools.Call, a logArgs) (tools.Result, error) {
	if err := checkRevPaths(a.Rev, a.Paths); err != nil {
		return tools.Errorf("%s: %v", LogName, err), nil
	}
	limit := cmp.Or(a.Limit, defaultLimit) // the schema bounds it
	args := []string{"log", "--max-count=" + strconv.Itoa(limit), "--date=short", "--format=%h %ad %an: %s%d", "--end-of-options"}
	if a.Rev != "" {
		args = append(args, a.Rev)
	}
	out, err := run(ctx, call.Env, readTimeout, "", withPaths(args, a.Paths)...)
	return result(LogName, out, err, "(no commits)"), nil
}

type logArgs struct {
	Rev string `json:"rev,omitempty" jsonschema:"Revision to start from, or a range such as main..HEAD. Default HEAD." pattern:"^[^-\\s]\\S*$"`
	pathsArg
	Limit int `json:"limit,omitempty" jsonschema:"Most commits to list. Default 20." minimum:"1" maximum:"500"`
}
