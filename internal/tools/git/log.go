package git

import (
	"cmp"
	"context"
	"strconv"

	"tai/internal/tools"
)

const defaultLimit = 20

func runLog(ctx context.Context, call tools.Call, a logArgs) (tools.Result, error) {
	limit := cmp.Or(a.Limit, defaultLimit) // the schema bounds it
	args := []string{"log", "--max-count=" + strconv.Itoa(limit), "--date=short", "--format=%h %ad %an: %s%d"}
	return readRevPaths(ctx, call.Env, LogName, args, a.Rev, a.Paths, "(no commits)"), nil
}

type logArgs struct {
	Rev string `json:"rev,omitempty" jsonschema:"Revision to start from, or a range such as main..HEAD. Default HEAD." pattern:"^[^-\\s]\\S*$"`
	pathsArg
	Limit int `json:"limit,omitempty" jsonschema:"Most commits to list. Default 20." minimum:"1" maximum:"500"`
}
