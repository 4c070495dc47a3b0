package config

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// Claude Code keeps the servers added with `claude mcp add` in
// ~/.claude.json: the user scope in the top-level mcpServers (read like
// any mcpServers wrapper) and each project's local scope under
// projects.<path>.mcpServers, beside much other state.

// claudeCodeProjects returns the local-scope server maps of Claude Code's
// state file, by project path: only project's when it is set.
func claudeCodeProjects(doc map[string]any, project string) ([]group, error) {
	projects, ok := doc["projects"].(map[string]any)
	if !ok {
		return nil, nil
	}
	var out []group
	for _, path := range slices.Sorted(maps.Keys(projects)) {
		if project != "" && path != project {
			continue
		}
		p, ok := projects[path].(map[string]any)
		if !ok {
			continue
		}
		v, ok := p["mcpServers"]
		if !ok {
			continue
		}
		where := at(at("projects", path), "mcpServers")
		m, err := wantObject(v, where)
		if err != nil {
			return nil, err
		}
		if len(m) > 0 {
			out = append(out, group{where: path, servers: m})
		}
	}
	return out, nil
}

// fromClaudeCodeProjects reads local-scope servers, each noted with its
// project.
func fromClaudeCodeProjects(local []group) ([]Entry, error) {
	var entries []Entry
	for _, g := range local {
		es, err := fromGroups([]group{{at(at("projects", g.where), "mcpServers"), g.servers}})
		if err != nil {
			return nil, err
		}
		for i := range es {
			es[i].Notes = append(es[i].Notes, fmt.Sprintf("Claude Code local scope of project %s", printable(g.where)))
		}
		entries = append(entries, es...)
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}
