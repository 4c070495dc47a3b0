package search

import (
	"context"
	_ "embed"
	"errors"
	"regexp"

	"tai/internal/tools"
)

// Grep is the grep tool's name.
const Grep = "grep"

//go:embed grep.md
var grepDoc string

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Regular expression to find in each line."},
    "path": {"type": "string", "description": "Directory or file to search, absolute or relative to the working directory. Default \".\"."},
    "glob": {"type": "string", "minLength": 1, "description": "Only search files matching this glob, e.g. \"*.go\" or \"src/**/*.ts\"."},
    "ignore_case": {"type": "boolean", "description": "Match letters of either case. Default false."},
    "context": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Lines to show before and after each match. Default 0."},
    "files_only": {"type": "boolean", "description": "List only the paths of matching files. Default false."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

func grepTool() *tools.Tool {
	t := tool(Grep, grepDoc, grepSchema)
	return tools.Define(t, runGrep, tools.TreeReach(".", func(a grepArgs) string { return a.Path }))
}

type grepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	IgnoreCase bool   `json:"ignore_case"`
	Context    int    `json:"context"`
	FilesOnly  bool   `json:"files_only"`
}

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
