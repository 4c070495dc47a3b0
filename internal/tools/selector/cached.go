package selector

import (
	"bytes"
	"strconv"
	"strings"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// BridgedName is the tai-side name of a server's tool, as mcp.md's Bridge
// section fixes it: mcp_<server>_<tool>, lower-cased, with anything outside
// [a-z0-9_] turned into _.
func BridgedName(server, tool string) string {
	return "mcp_" + sanitize(server) + "_" + sanitize(tool)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, s)
}

// CachedTools turns servers' cached tool lists into the tools the bridge
// exposes, without starting any server: named by BridgedName (a name that
// sanitizes to one already taken gains a numeric suffix), the description
// and inputSchema passed through, and tools past a server's MCP_MAX_TOOLS
// marked Unoffered. Run is nil: these tools can be listed, searched,
// selected and measured, not called. They are what `tai tools select`
// measures until the MCP bridge supplies callable tools of the same shape.
func CachedTools(cached []vault.MCPTool) []*tools.Tool {
	out := make([]*tools.Tool, 0, len(cached))
	taken := map[string]bool{}
	perServer := map[string]int{}
	for _, c := range cached {
		name := BridgedName(c.Server, c.Tool)
		for n := 2; taken[name]; n++ {
			name = BridgedName(c.Server, c.Tool) + "_" + strconv.Itoa(n)
		}
		taken[name] = true
		schema := c.Schema
		if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
			schema = emptySchema
		}
		out = append(out, &tools.Tool{
			Name: name, Description: c.Description, Schema: schema, Group: "mcp",
			Server: c.Server, Remote: c.Tool, Unoffered: perServer[c.Server] >= wire.MaxTools,
		})
		perServer[c.Server]++
	}
	return out
}

// CachedSource is a tools.Source over a fixed list of tools, such as
// CachedTools' output.
type CachedSource struct {
	list   []*tools.Tool
	byName map[string]*tools.Tool
}

var _ tools.Source = (*CachedSource)(nil)

// NewCachedSource returns a Source listing ts in order.
func NewCachedSource(ts []*tools.Tool) *CachedSource {
	s := &CachedSource{list: ts, byName: make(map[string]*tools.Tool, len(ts))}
	for _, t := range ts {
		s.byName[t.Name] = t
	}
	return s
}

// Tools implements tools.Source.
func (s *CachedSource) Tools() []*tools.Tool { return s.list }

// Lookup implements tools.Source.
func (s *CachedSource) Lookup(name string) (*tools.Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}
