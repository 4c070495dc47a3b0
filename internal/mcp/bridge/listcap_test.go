package bridge

import (
	"context"
	"strings"
	"testing"

	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/tools"
	"tai/internal/vault"
)

// generatingEntry runs the fake with echo and the generated tools that
// ${GEN} asks for (COUNT/PERPAGE; empty for none).
func generatingEntry(t *testing.T) config.Entry {
	e := fakeEntry(t, "many", "echo")
	e.Env[mcptest.EnvGenerated] = "${GEN}"
	return e
}

// A server listing 20,000 tools, 300 a page (67 pages, within the page
// limit), is refused at registration
// with one line naming it, the cap and its value, and nothing is stored.
func TestAdd_ListPastTheCapStoresNothing(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.env["GEN"] = "20000/300"
	_, err := f.b.Add(ctx, AddRequest{Entries: []config.Entry{generatingEntry(t)}}, yes(true), nil)
	if err == nil {
		t.Fatal("registered a server listing 20,000 tools")
	}
	wantContains(t, "the error", err.Error(), "MCP server many was not stored", "MCP_MAX_LISTED_TOOLS = 1000", "page 4")
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("the error is more than one line: %q", err)
	}
	names, _ := f.store.MCPServerNames(ctx)
	cached, _ := f.store.MCPTools(ctx, "many")
	pins, _ := f.store.MCPPins(ctx, "many")
	if len(names)+len(cached)+len(pins) != 0 {
		t.Errorf("stored servers %v, %d tools, %d pins", names, len(cached), len(pins))
	}
}

// A registered server that starts listing past the cap is not used: the
// refresh fails naming the cap, the approved tools and pins stay as they
// were, and once it lists within the caps again it works as before.
func TestRefresh_ListPastTheCapKeepsTheApprovedTools(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.env["GEN"] = ""
	f.add(t, generatingEntry(t), true)
	pinsBefore, _ := f.store.MCPPins(ctx, "many")
	f.b.Confirm = func(context.Context, tools.Consent) (bool, error) { return true, nil }

	f.env["GEN"] = "20000/300"
	_, err := f.b.Verify(ctx, "many")
	if err == nil || !strings.Contains(err.Error(), "MCP server many is not used") || !strings.Contains(err.Error(), "MCP_MAX_LISTED_TOOLS = 1000") {
		t.Fatalf("verify: %v", err)
	}
	_, err = f.invoke(ctx, "many", "echo", `{"message":"hi"}`)
	if err == nil || !strings.Contains(err.Error(), "MCP_MAX_LISTED_TOOLS") {
		t.Fatalf("a call to a server past the cap: %v", err)
	}
	cached, _ := f.store.MCPTools(ctx, "many")
	pins, _ := f.store.MCPPins(ctx, "many")
	if len(cached) != 1 || cached[0].Tool != "echo" || len(pins) != 1 || pins["echo"].Hash != pinsBefore["echo"].Hash {
		t.Fatalf("after the failed refresh: cached %+v, pins %+v", cached, pins)
	}
	if _, ok := f.b.Lookup("mcp_many_echo"); !ok {
		t.Error("the approved tool is no longer listed")
	}

	f.env["GEN"] = ""
	res, err := f.invoke(ctx, "many", "echo", `{"message":"hi"}`)
	if err != nil || res.Text != "hi" {
		t.Fatalf("call within the caps again: %+v, %v", res, err)
	}
	entries, _ := f.store.AuditEntries(ctx, vault.AuditQuery{Kind: "mcp-call"})
	if len(entries) != 2 {
		t.Errorf("audit rows %+v", entries)
	}
}
