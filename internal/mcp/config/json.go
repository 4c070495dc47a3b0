package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// fromJSON reads a JSON config: an mcpServers wrapper (Claude Desktop,
// Cursor, Claude Code, Gemini CLI, Windsurf), a servers wrapper (VS Code's
// mcp.json, or "mcp": {"servers": …} in its settings.json), Crush's "mcp"
// map of servers, one bare
// server, or a map of servers with no wrapper at all.
func fromJSON(text string, shift int, opts Options) ([]Entry, error) {
	doc, err := decodeJSON(text, shift)
	if err != nil {
		return nil, err
	}
	inputs, err := readInputs(doc)
	if err != nil {
		return nil, err
	}
	groups, err := wrappers(doc)
	if err != nil {
		return nil, err
	}
	local, err := claudeCodeProjects(doc, opts.Project)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	switch {
	case len(groups) > 0 || len(local) > 0:
		entries, err = fromGroups(groups)
		if err == nil {
			var more []Entry
			more, err = fromClaudeCodeProjects(local)
			entries = append(entries, more...)
		}
	case isServer(doc):
		entries, err = fromBare(doc)
	case len(doc) == 0:
		err = fmt.Errorf("empty JSON object: paste a config with mcpServers or servers, or one server with command or url")
	case allServers(doc):
		entries, err = fromGroups([]group{{"", doc}})
		for i := range entries {
			entries[i].Notes = append(entries[i].Notes, "no mcpServers wrapper: read as a map of servers")
		}
	default:
		err = unknownShape(doc)
	}
	if err != nil {
		return nil, err
	}
	gemini := opts.Host == HostGemini || geminiShaped(doc, groups)
	crush := crushGroup(doc) != nil
	for i := range entries {
		noteInputs(&entries[i], inputs)
		switch {
		case crush:
			err = crushVars(&entries[i], "mcp")
		case gemini:
			geminiVars(&entries[i])
		}
		if err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// group is one map of servers and the path it sits at.
type group struct {
	where   string
	servers map[string]any
}

func wrappers(doc map[string]any) ([]group, error) {
	var groups []group
	for _, key := range []string{"mcpServers", "servers"} {
		if v, ok := doc[key]; ok {
			m, err := wantObject(v, key)
			if err != nil {
				return nil, err
			}
			groups = append(groups, group{key, m})
		}
	}
	if g := crushGroup(doc); g != nil {
		groups = append(groups, *g)
	} else if mcp, ok := doc["mcp"].(map[string]any); ok {
		if v, ok := mcp["servers"]; ok {
			m, err := wantObject(v, "mcp.servers")
			if err != nil {
				return nil, err
			}
			groups = append(groups, group{"mcp.servers", m})
		}
	}
	return groups, nil
}

func fromGroups(groups []group) ([]Entry, error) {
	var entries []Entry
	for _, g := range groups {
		if len(g.servers) == 0 {
			return nil, fmt.Errorf("%s is empty: it holds no servers", g.where)
		}
		for _, name := range slices.Sorted(maps.Keys(g.servers)) {
			where := name
			if g.where != "" {
				where = at(g.where, name)
			}
			m, err := wantObject(g.servers[name], where)
			if err != nil {
				return nil, err
			}
			e, err := decodeEntry(name, where, m, SourceJSON)
			if err != nil {
				return nil, err
			}
			entries = append(entries, e)
		}
	}
	return entries, nil
}

// fromBare reads one server with no name around it; VS Code's
// code --add-mcp form carries its name inside.
func fromBare(doc map[string]any) ([]Entry, error) {
	raw, named := doc["name"]
	delete(doc, "name")
	e, err := decodeEntry("server", "server", doc, SourceJSON)
	if err != nil {
		return nil, err
	}
	if named {
		name, err := wantString(raw, "name")
		if err != nil {
			return nil, err
		}
		if err := setName(&e, name); err != nil {
			return nil, err
		}
		return []Entry{e}, nil
	}
	nameDerived(&e)
	return []Entry{e}, nil
}

// serverKeys mark an object as one server rather than a wrapper.
var serverKeys = []string{"command", "args", "url", "httpUrl", "serverUrl", "type"}

func isServer(m map[string]any) bool {
	for _, k := range serverKeys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func allServers(doc map[string]any) bool {
	for _, v := range doc {
		m, ok := v.(map[string]any)
		if !ok || !isServer(m) {
			return false
		}
	}
	return true
}

// ErrUnknownShape is wrapped by the error for JSON that holds no servers
// tai can find, such as a host's settings file with no MCP section.
var ErrUnknownShape = errors.New("unknown config shape")

func unknownShape(doc map[string]any) error {
	return fmt.Errorf("%w: found %s; expected \"mcpServers\", \"servers\", or one server with \"command\" or \"url\"", ErrUnknownShape, listKeys(doc))
}
