package git

import (
	"context"

	"tai/internal/tools"
)

func runShow(ctx context.Context, call tools.Call, a showArgs) (tools.Result, error) {
	if err := checkRevPaths(a.Rev, a.Paths); err != nil {
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

type showArgs struct {
	Rev string `json:"rev,omitempty" jsonschema:"Commit to show, or REV:PATH for a file at a revision. Default HEAD." pattern:"^[^-\\s]\\S*$"`
	pathsArg
	Stat bool `json:"stat,omitempty" jsonschema:"Summarise files and line counts instead of the patch."`
}
