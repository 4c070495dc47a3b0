package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// redefine makes the registered fake server list tools from its next
// start on, keeping its cache, pins and consent as they were, as a server
// updated in place would.
func (f *fixture) redefine(t *testing.T, server string, listed []map[string]any) {
	t.Helper()
	ctx := context.Background()
	b, _ := json.Marshal(listed)
	srv, err := f.store.MCPServer(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	srv.Env["TAI_FAKE_TOOLS"] = string(b)
	srv.ConsentedHash = LaunchHash(EntryOf(srv))
	tl, _ := f.store.MCPTools(ctx, server)
	pins, _ := f.store.MCPPins(ctx, server)
	if err := f.store.RegisterMCPServer(ctx, vault.MCPRegistration{Server: srv, Tools: tl, Pins: pins, MaxServers: wire.MaxServers}); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) audited(t *testing.T, kind string) []vault.AuditEntry {
	t.Helper()
	rows, err := f.store.AuditEntries(context.Background(), vault.AuditQuery{Kind: kind})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// Drift found when a server starts inside a session is shown as a notice
// naming the server, the tools and the command that reviews them, and the
// model calling a tool it was offered before gets an error saying the
// tool is withheld pending the person's review, not "unknown tool".
func TestDrift_InSessionNoticeAndWithheldError(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var notices []string
	f.b.Notice = func(s string) { notices = append(notices, s) }
	f.add(t, fakeEntry(t, "fake", "echo", "fail"), true)
	offered, ok := f.b.Lookup("mcp_fake_fail")
	if !ok {
		t.Fatal("mcp_fake_fail not offered")
	}
	f.redefine(t, "fake", []map[string]any{{"name": "echo", "description": "the echo tool"}, {"name": "fail", "description": "now does something else"}, {"name": "image"}})

	res, err := f.b.Call(ctx, "fake", "echo", nil) // starts the server: the fresh list arrives
	if err != nil || res.IsError {
		t.Fatalf("echo: %+v %v", res, err)
	}
	want := "MCP server fake lists tools you have not approved (new: image; changed: fail); they are withheld until you review them with `tai mcp tools fake --approve`"
	if len(notices) != 1 || !strings.HasPrefix(notices[0], want) {
		t.Fatalf("notices = %q", notices)
	}
	tl, ok := f.b.Lookup(offered.Name)
	if !ok {
		t.Fatal("the withheld tool is unknown to the model")
	}
	if !tl.IsSafe(tools.Call{}) {
		t.Error("calling a withheld tool would ask for approval of a call that cannot run")
	}
	env := &tools.Env{Store: f.store, Profile: vault.DefaultProfile}
	o, err := tools.Invoke(ctx, tl, tools.Call{Args: json.RawMessage(`{}`), Env: env}, tools.Via{Origin: vault.OriginAgent})
	if err == nil || !strings.Contains(o.Text, "withheld pending the person's review") || !strings.Contains(o.Text, "tai mcp tools fake --approve") {
		t.Fatalf("withheld call: %+v %v", o, err)
	}
	if rows := f.audited(t, vault.KindMCPCall); len(rows) == 0 || rows[len(rows)-1].Outcome != vault.OutcomeRefused || rows[len(rows)-1].Subject != "fake/fail" {
		t.Errorf("audit rows %+v", rows)
	}
	if names(f.b.Tools()) != "mcp_fake_echo" {
		t.Errorf("offered %s", names(f.b.Tools()))
	}
}

// A server whose definitions change on every start (mcp-time lists its
// formats from a Go map) can be put under the notify pin policy: a
// changed definition is accepted, its diff shown as a notice and audited,
// and its grants kept; a new tool is still withheld. Strict stays the
// default.
func TestDrift_NotifyPolicyAcceptsChangedDefinitions(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var notices []string
	f.b.Notice = func(s string) { notices = append(notices, s) }
	_, err := f.b.Add(ctx, AddRequest{Source: "https://mcp.example.com/mcp", PinPolicy: "lax"}, yes(true), nil)
	if err == nil || !strings.Contains(err.Error(), "want strict") {
		t.Fatalf("a bad policy: %v", err)
	}
	f.add(t, fakeEntry(t, "time", "env", "echo"), true)
	if srv, _ := f.store.MCPServer(ctx, "time"); srv.PinPolicy != vault.PinStrict {
		t.Fatalf("default policy %q", srv.PinPolicy)
	}
	if err := f.store.SetMCPPinPolicy(ctx, "time", vault.PinNotify); err != nil {
		t.Fatal(err)
	}
	f.store.AddGrant(ctx, vault.DefaultProfile, vault.GrantTool, "mcp_time_echo")
	f.redefine(t, "time", []map[string]any{{"name": "env", "description": "the env tool"},
		{"name": "echo", "description": "formats: RFC3339, Kitchen, ANSIC"}, {"name": "image"}})

	res, err := f.b.Call(ctx, "time", "echo", json.RawMessage(`{"message":"hi"}`))
	if err != nil || res.IsError {
		t.Fatalf("the changed tool under notify: %+v %v", res, err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "MCP server time changed tool echo; accepted under its notify pin policy:") ||
		!strings.Contains(notices[0], `+  "description": "formats: RFC3339, Kitchen, ANSIC"`) ||
		!strings.Contains(notices[0], "withheld until you review them with `tai mcp tools time --approve`") {
		t.Fatalf("notices = %q", notices)
	}
	if rows := f.audited(t, "mcp-pin-accepted"); len(rows) != 1 || rows[0].Subject != "time/echo" {
		t.Errorf("audit rows %+v", rows)
	}
	if ok, _ := f.store.HasGrant(ctx, vault.DefaultProfile, vault.GrantTool, "mcp_time_echo"); !ok {
		t.Error("an accepted definition lost its grant")
	}
	if _, err := f.b.Call(ctx, "time", "image", nil); err == nil || !strings.Contains(err.Error(), "new and withheld") {
		t.Errorf("a new tool under notify: %v", err)
	}
}
