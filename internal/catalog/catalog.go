// Package catalog assembles tai's native tool catalogue from the tool group
// subpackages of internal/tools and the mcp_* tools of internal/mcp/bridge.
// It is the one place that lists every group, and sits above both, so no
// tool package imports the bridge.
package catalog

import (
	_ "embed"
	"strings"
	"sync"

	"tai/internal/mcp/bridge"
	"tai/internal/tools"
	"tai/internal/tools/fs"
	"tai/internal/tools/git"
	"tai/internal/tools/memory"
	"tai/internal/tools/meta"
	"tai/internal/tools/people"
	"tai/internal/tools/plan"
	"tai/internal/tools/profiletools"
	"tai/internal/tools/search"
	"tai/internal/tools/shell"
	"tai/internal/tools/subagent"
	"tai/internal/tools/vaulttools"
	"tai/internal/tools/web"
)

// Native returns every native tool, freshly built, each with its Asks.
func Native() []*tools.Tool {
	var out []*tools.Tool
	phrasings := asks()
	for _, group := range groups {
		for _, t := range group() {
			t.Asks = phrasings[t.Name]
			out = append(out, t)
		}
	}
	return out
}

// asksText holds, for every native tool, how people ask for what it does
// in their own words (tools.Tool.Asks): a "# name" line, then a phrase a
// line. It was written without reading any of the selector's evaluation
// sets (docs/benchmarks.md, "Tool selection").
//
//go:embed asks.txt
var asksText string

// asks is asksText by tool name, read on first use: each phrase on a line
// of its own. Every start of tai reads it before its first model request,
// so each tool's text is built once, not copied again for every line.
var asks = sync.OnceValue(func() map[string]string {
	blocks := map[string]*strings.Builder{}
	var b *strings.Builder
	for line := range strings.Lines(asksText) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"):
			name := strings.TrimSpace(strings.TrimPrefix(line, "#"))
			if b = blocks[name]; b == nil && name != "" {
				b = &strings.Builder{}
				blocks[name] = b
			}
		case line != "" && b != nil:
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	out := make(map[string]string, len(blocks))
	for name, b := range blocks {
		if b.Len() > 0 {
			out[name] = b.String()
		}
	}
	return out
})

// groups lists each tool group's constructor.
var groups = []func() []*tools.Tool{
	bridge.AgentTools,
	fs.Tools,
	search.Tools,
	memory.Tools,
	plan.Tools,
	shell.Tools,
	git.Tools,
	people.Tools,
	subagent.Tools,
	vaulttools.Tools,
	web.Tools,
	profiletools.Tools,
	meta.Tools,
}
