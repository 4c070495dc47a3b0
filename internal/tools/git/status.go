package git

import (
	"context"
	"strings"

	"tai/internal/tools"
)

func runStatus(ctx context.Context, call tools.Call, a statusArgs) (tools.Result, error) {
	err := checkPaths(a.Paths)
	if err != nil {
		return tools.Errorf("%s: %v", StatusName, err), nil
	}
	out, err := run(ctx, call.Env, readTimeout, "", withPaths([]string{"status", "--short", "--branch", "--ignore-submodules=dirty"}, a.Paths)...)
	if err == nil && !strings.Contains(strings.TrimSpace(out), "\n") {
		out = strings.TrimRight(out, "\n") + "\nnothing to commit, working tree clean\n"
	}
	return result(StatusName, out, err, ""), nil
}

type statusArgs struct {
	pathsArg
}
