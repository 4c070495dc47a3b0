package bridge

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// The listing's counts from SQLite (tallyTools) are those of the catalogue
// view (countTools): tools past MCP_MAX_TOOLS, new and changed tools
// withheld, on servers of every size.
func TestServers_TallyMatchesTheView(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	manyServers(t, s, 3, 130, "/nonexistent/never-started")
	manyServers(t, s, 1, 5, "/nonexistent/never-started") // srv00 again, now 5 tools
	// srv01: a tool changed since it was pinned, one new, one past the cap changed
	if err := s.SetMCPPins(ctx, "srv01", map[string]vault.MCPPin{
		"tool_003": {Hash: "old", Definition: "{}"}, "tool_120": {Hash: "old", Definition: "{}"}}, []string{"tool_007"}); err != nil {
		t.Fatal(err)
	}
	b := &Bridge{Store: s, Profile: vault.DefaultProfile}
	servers, _ := s.MCPServers(ctx, false)
	tallied, viewed := map[string]*ServerInfo{}, map[string]*ServerInfo{}
	for _, srv := range servers {
		tallied[srv.Name], viewed[srv.Name] = &ServerInfo{Name: srv.Name}, &ServerInfo{Name: srv.Name}
	}
	if ok, err := b.tallyTools(ctx, servers, tallied); !ok || err != nil {
		t.Fatalf("tallyTools: %v, %v", ok, err)
	}
	if err := b.countTools(ctx, viewed); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(viewed, tallied); diff != "" {
		t.Errorf("tally differs from the view (-view +tally):\n%s", diff)
	}
	if got := tallied["srv01"]; got.Pending != 3 || got.Unoffered != 130-wire.MaxTools-1 || got.Tools != 130 {
		t.Errorf("srv01: %+v; want 3 pending, %d listed only", *got, 130-wire.MaxTools-1)
	}
	if tallied["srv00"].Tools != 5 {
		t.Errorf("srv00 has %d tools, want 5", tallied["srv00"].Tools)
	}
}

// A server with a deny list needs the tools themselves: the tally gives way.
func TestServers_DenyListCountsFromTheView(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	manyServers(t, s, 1, 10, "/nonexistent/never-started")
	b := &Bridge{Store: s, Profile: vault.DefaultProfile}
	servers, _ := s.MCPServers(ctx, false)
	servers[0].Deny = []string{"tool_001", "tool_002"}
	if ok, _ := b.tallyTools(ctx, servers, map[string]*ServerInfo{"srv00": {}}); ok {
		t.Error("tallied a server with a deny list")
	}
}
