// Package search is the search group of native tools: glob lists files by
// name, grep searches their content, outline lists a source file's
// declarations. Tree walks respect .gitignore files as git does and skip
// .git, symbolic links and (for grep) binary files.
package search

import (
	"embed"
	"fmt"
	"os"

	"tai/internal/tools"
)

// Group is the catalogue group of these tools.
const Group = "search"

// resultCap bounds a result's text, MCP_RESULT_MAX, so results never spill.
const resultCap = 64 << 10

// Tool names.
const (
	Glob    = "glob"
	Grep    = "grep"
	Outline = "outline"
)

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// Tools returns the search group, freshly built.
func Tools() []*tools.Tool {
	group := tools.Group{Name: Group, Docs: docs}
	return []*tools.Tool{
		tools.Define(group.Tool(Glob, tools.AlwaysSafe), runGlob, tools.PathReach(".", func(a globArgs) string { return a.Path })),
		tools.Define(group.Tool(Grep, tools.AlwaysSafe), runGrep, tools.TreeReach(".", func(a grepArgs) string { return a.Path })),
		tools.Define(group.Tool(Outline, tools.AlwaysSafe), runOutline, tools.PathReach("", func(a outlineArgs) string { return a.Path })),
	}
}

// searchRoot resolves the directory a search starts from, or explains why
// the path cannot be one.
func searchRoot(env *tools.Env, path string) (string, os.FileInfo, error) {
	if path == "" {
		path = "."
	}
	abs := env.Abs(path)
	fi, err := os.Stat(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return "", nil, fmt.Errorf("%s does not exist", env.Rel(abs))
		}
		return "", nil, fmt.Errorf("%s: %w", env.Rel(abs), err)
	}
	return abs, fi, nil
}
