// Package catalog assembles tai's native tool catalogue from the tool group
// subpackages of internal/tools and the mcp_* tools of internal/mcp/bridge.
// It is the one place that lists every group, and sits above both, so no
// tool package imports the bridge.
package catalog

import (
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

// Native returns every native tool, freshly built.
func Native() []*tools.Tool {
	var out []*tools.Tool
	for _, group := range groups {
		out = append(out, group()...)
	}
	return out
}

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
