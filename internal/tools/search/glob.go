package search

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
)

// globCap bounds the paths listed.
const globCap = 1000

func runGlob(ctx context.Context, call tools.Call, a globArgs) (tools.Result, error) {
	p, ok := parsePattern(a.Pattern)
	if !ok || p.negate {
		return tools.Errorf("%q is not a usable glob (a blank, comment or negated pattern)", a.Pattern), nil
	}
	root, fi, err := searchRoot(call.Env, a.Path)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	if !fi.IsDir() {
		return tools.Errorf("%s is a file; glob searches a directory", call.Env.Rel(root)), nil
	}
	var b strings.Builder
	n := 0
	err = walk(ctx, root, func(rel, abs string) error {
		if !p.match(rel, false) {
			return nil
		}
		if n++; n > globCap {
			return errStop
		}
		b.WriteString(call.Env.Rel(abs) + "\n")
		return nil
	})
	if err != nil {
		return tools.Errorf("searching %s: %v", call.Env.Rel(root), err), nil
	}
	switch {
	case n == 0:
		return tools.Text(fmt.Sprintf("no files match %q under %s", a.Pattern, call.Env.Rel(root))), nil
	case n > globCap:
		fmt.Fprintf(&b, "[stopped at %d files; narrow the pattern or the path]\n", globCap)
	}
	return tools.Text(b.String()), nil
}

type globArgs struct {
	Pattern string `json:"pattern" jsonschema:"Glob in .gitignore syntax, e.g. \"*.go\" or \"src/**/*.ts\"." minLength:"1"`
	Path    string `json:"path,omitempty" jsonschema:"Directory to search, absolute or relative to the working directory. Default \".\"."`
}
