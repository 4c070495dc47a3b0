package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
)

// statelessEntry runs the fake server in the stateless era only, its tool
// list fresh for ttlMs.
func statelessEntry(t *testing.T, name, ttlMs string, toolNames ...string) (e config.Entry) {
	e = fakeEntry(t, name, toolNames...)
	e.Env[mcptest.EnvStateless] = ttlMs
	return e
}

func TestEra_RememberedAndShown(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.add(t, statelessEntry(t, "modern", "0", "echo"), true)
	f.add(t, fakeEntry(t, "legacy", "echo"), true)
	for server, era := range map[string]string{"modern": wire.StatelessEra.Name, "legacy": wire.SessionEra.Name} {
		srv, err := f.store.MCPServer(ctx, server)
		if err != nil || srv.Era != era {
			t.Fatalf("%s stored with era %q (%v), want %q", server, srv.Era, err, era)
		}
		res, err := f.b.Call(ctx, server, "echo", json.RawMessage(`{"message":"hi"}`))
		if err != nil || res.Text != "hi" {
			t.Fatalf("%s: %+v %v", server, res, err)
		}
	}
	list, err := f.b.Servers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	table := FormatServers(list)
	if !strings.Contains(table, "ERA") || !strings.Contains(table, "2026-07-28") || !strings.Contains(table, "session") {
		t.Fatalf("mcp list does not show the eras:\n%s", table)
	}
	tl, _ := f.b.ServerTools(ctx, "modern")
	if out := FormatTools(tl); !strings.Contains(out, "modern (enabled; MCP 2026-07-28):") {
		t.Fatalf("mcp tools does not show the era:\n%s", out)
	}
}

func TestEra_ListIsAskedAgainAfterItsTTL(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const ttl = 100 * time.Millisecond
	f.add(t, statelessEntry(t, "modern", "100", "echo"), true)
	if _, err := f.b.Call(ctx, "modern", "echo", json.RawMessage(`{"message":"1"}`)); err != nil {
		t.Fatal(err)
	}
	// The list is fresh for ttlMs: wait that long of real time, which is
	// what the behaviour depends on.
	time.Sleep(ttl + 20*time.Millisecond)
	if _, err := f.b.Call(ctx, "modern", "echo", json.RawMessage(`{"message":"2"}`)); err != nil {
		t.Fatal(err)
	}
	tl, err := f.b.ServerTools(ctx, "modern")
	if err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, x := range tl {
		states = append(states, x.Remote+"="+x.State)
	}
	if got := strings.Join(states, " "); got != "echo=offered added=new: awaiting approval" {
		t.Fatalf("after the ttl the re-listed tool is not withheld: %s", got)
	}
	if _, err := f.b.Call(ctx, "modern", "added", nil); err == nil || !strings.Contains(err.Error(), "withheld") {
		t.Fatalf("a tool added at re-listing was callable: %v", err)
	}
}
