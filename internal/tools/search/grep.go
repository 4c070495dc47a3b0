package search

import (
	"context"
	"errors"
	"regexp"

	"tai/internal/tools"
)

// query is a checked grep call, as both engines take it.
type query struct {
	re         *regexp.Regexp
	whole      *regexp.Regexp // re in multi-line mode, to rule out a whole file at once; nil if unsafe
	goPattern  string         // the pattern with (?i) when ignoring case
	root       string         // absolute
	rootIsFile bool
	filter     *pattern
	context    int
	filesOnly  bool
}

func runGrep(ctx context.Context, call tools.Call, a grepArgs) (tools.Result, error) {
	q, err := newQuery(call.Env, a)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	rep := &report{env: call.Env, root: q.root, filesOnly: q.filesOnly, context: q.context}
	if err := runQuery(ctx, q, rep); err != nil {
		return tools.Errorf("grep: %v", err), nil
	}
	return tools.Text(rep.result(a.Pattern)), nil
}

type grepArgs struct {
	Pattern    string `json:"pattern" jsonschema:"Regular expression to find in each line." minLength:"1"`
	Path       string `json:"path,omitempty" jsonschema:"Directory or file to search, absolute or relative to the working directory. Default \".\"."`
	Glob       string `json:"glob,omitempty" jsonschema:"Only search files matching this glob, e.g. \"*.go\" or \"src/**/*.ts\"." minLength:"1"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"Match letters of either case. Default false."`
	Context    int    `json:"context,omitempty" jsonschema:"Lines to show before and after each match. Default 0." minimum:"0" maximum:"10"`
	FilesOnly  bool   `json:"files_only,omitempty" jsonschema:"List only the paths of matching files. Default false."`
}

// runQuery runs ripgrep when it is installed, else the Go engine; a
// pattern ripgrep rejects is searched by the Go engine.
func runQuery(ctx context.Context, q *query, rep *report) error {
	if rg := ripgrep(); rg != "" {
		err := grepRipgrep(ctx, rg, q, rep.add)
		if !errors.Is(err, errRegexSyntax) || rep.files > 0 {
			return err
		}
	}
	return grepGo(ctx, q, rep.add)
}
