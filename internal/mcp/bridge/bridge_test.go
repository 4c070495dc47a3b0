package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

func TestMain(m *testing.M) {
	if mcptest.ShouldServe() {
		mcptest.Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type fixture struct {
	store *vault.Store
	b     *Bridge
	env   map[string]string
}

// openStore opens a vault in a fresh home (tooltest's), closed when tb
// ends.
func openStore(tb testing.TB) *vault.Store {
	tb.Helper()
	return tooltest.Env(tb).Store
}

// wantContains fails t for each of wants that text, what the test reads,
// lacks.
func wantContains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	s := openStore(t)
	f := &fixture{store: s, env: map[string]string{}}
	f.b = &Bridge{Store: s, Profile: vault.DefaultProfile,
		LookupEnv: func(n string) (string, bool) { v, ok := f.env[n]; return v, ok },
		Transport: inProcess(t)}
	t.Cleanup(func() { f.b.Close() })
	return f
}

// invoke calls a bridged tool through tools.Invoke, the door every host
// uses, so the call is validated, redacted and audited as in tai.
func (f *fixture) invoke(ctx context.Context, server, tool string, args string) (tools.Outcome, error) {
	env := &tools.Env{Store: f.store, Profile: f.b.Profile}
	return tools.Invoke(ctx, f.b.BridgedTool(ctx, server, tool), tools.Call{Args: json.RawMessage(args), Env: env},
		tools.Via{Origin: vault.OriginAgent})
}

// inProcess serves a fake server inside the test process, over
// client.NewInMemory, where its entry allows (mcptest.InProcess): no child
// is started for it. Any other entry, and every test that sets
// f.b.Transport = nil, starts its command as tai does.
func inProcess(t *testing.T) func(config.Entry) client.Transport {
	return func(e config.Entry) client.Transport {
		if e.Transport != config.Stdio || e.Command != os.Args[0] || !mcptest.InProcess(e.Env) {
			return nil
		}
		tr, end := client.NewInMemory(e.Name)
		s := mcptest.FromEnv(func(k string) (string, bool) { v, ok := e.Env[k]; return v, ok })
		s.Send = func(m *wire.Message) { end.Send(m) }
		s.Raw = func(line string) { end.SendRaw(line) }
		s.Stderr = end.Stderr
		end.Serve(s.Handle)
		t.Cleanup(end.Close)
		return tr
	}
}

// fakeEntry is a stdio entry running the fake server with tools.
func fakeEntry(t *testing.T, name string, toolNames ...string) config.Entry {
	return config.Entry{Name: name, Transport: config.Stdio, Command: os.Args[0],
		Env: mcptest.Env(toolNames...), Source: config.SourceExplicit}
}

func yes(enable bool) RegisterConsent {
	return func(context.Context, tools.Consent, bool) (bool, bool, error) { return true, enable, nil }
}

func (f *fixture) add(t *testing.T, e config.Entry, enable bool) Added {
	t.Helper()
	added, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, yes(enable), nil)
	if err != nil {
		t.Fatal(err)
	}
	return added[0]
}

func names(ts []*tools.Tool) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

func TestAdd_StoresAndBridges(t *testing.T) {
	f := newFixture(t)
	a := f.add(t, fakeEntry(t, "Fake-Srv", "echo", "fail", "Weird.Name!"), false)
	if len(a.Tools) != 3 || a.Enabled {
		t.Fatalf("added = %+v", a)
	}
	if got := names(f.b.Tools()); got != "" {
		t.Fatalf("a disabled server offers %s", got)
	}
	if err := f.store.SetMCPEnabled(context.Background(), "Fake-Srv", vault.DefaultProfile, true); err != nil {
		t.Fatal(err)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_srv_echo,mcp_fake_srv_fail,mcp_fake_srv_weird_name_" {
		t.Fatalf("tools = %s", got)
	}
	tl, ok := f.b.Lookup("mcp_fake_srv_weird_name_")
	if !ok || tl.Server != "Fake-Srv" || tl.Remote != "Weird.Name!" {
		t.Fatalf("lookup = %+v %v", tl, ok)
	}
	if string(tl.Schema) != `{"type":"object"}` {
		t.Fatalf("schema = %s", tl.Schema)
	}
}

func TestAdd_FailedHandshakeStoresNothing(t *testing.T) {
	f := newFixture(t)
	e := config.Entry{Name: "broken", Transport: config.Stdio, Command: "/bin/sh", Args: []string{"-c", "echo boom >&2; exit 3"}}
	_, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, yes(true), nil)
	if err == nil || !strings.Contains(err.Error(), "not stored") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v", err)
	}
	if names, _ := f.store.MCPServerNames(context.Background()); len(names) != 0 {
		t.Fatalf("stored %v", names)
	}
}

func TestAdd_UnresolvedVariableRefuses(t *testing.T) {
	f := newFixture(t)
	e := fakeEntry(t, "needs", "echo")
	e.Env["TOKEN"] = "${NOT_SET_ANYWHERE}"
	_, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, yes(true), nil)
	if err == nil || !strings.Contains(err.Error(), "NOT_SET_ANYWHERE") {
		t.Fatalf("err = %v", err)
	}
}

func TestCall_OutcomesStayApart(t *testing.T) {
	f := newFixture(t)
	f.add(t, fakeEntry(t, "fake", "echo", "fail", "image"), true)
	ctx := context.Background()
	res, err := f.invoke(ctx, "fake", "echo", `{"message":"hi"}`)
	if err != nil || res.Text != "hi" || res.IsError {
		t.Fatalf("echo = %+v, %v", res, err)
	}
	res, err = f.invoke(ctx, "fake", "fail", "")
	if err != nil || !res.IsError || res.Text != "it broke" {
		t.Fatalf("fail = %+v, %v", res, err)
	}
	res, err = f.invoke(ctx, "fake", "image", "")
	if err != nil || !strings.Contains(res.Text, `"type":"image"`) || !strings.HasSuffix(res.Text, "caption") {
		t.Fatalf("image = %+v, %v", res, err)
	}
	if res, err = f.invoke(ctx, "fake", "echo", `"not an object"`); err != nil || !res.Invalid() {
		t.Fatalf("non-object arguments through the door: %+v, %v, want them refused before the server", res, err)
	}
	// Past the door's check, the server itself refuses them.
	_, err = f.b.Call(ctx, "fake", "echo", json.RawMessage(`"not an object"`))
	var rpc *wire.Error
	if !errors.As(err, &rpc) || rpc.Code != wire.CodeInvalidParams {
		t.Fatalf("non-object arguments: %v, want a JSON-RPC error", err)
	}
	var oc tools.Outcomer
	if !errors.As(err, &oc) || oc.AuditOutcome() != vault.OutcomeProtocolError {
		t.Fatalf("a server's JSON-RPC error is not recorded as a protocol error: %v", err)
	}
	if res, err = f.invoke(ctx, "fake", "nosuch", `{}`); err != nil || !res.IsError {
		t.Fatalf("a tool the server lacks: %+v, %v", res, err)
	}
	rows, _ := f.store.AuditEntries(ctx, vault.AuditQuery{Kind: "mcp-call"})
	var outcomes []string
	for _, r := range rows {
		outcomes = append(outcomes, r.Subject+"="+r.Outcome+"@"+r.Origin)
	}
	if got := strings.Join(outcomes, " "); got != "fake/echo=ok@agent fake/fail=tool-error@agent fake/image=ok@agent fake/echo=invalid@agent fake/nosuch=tool-error@agent" {
		t.Fatalf("audit = %s", got)
	}
}

func TestCall_DisabledServerNamesEnable(t *testing.T) {
	f := newFixture(t)
	f.add(t, fakeEntry(t, "fake", "echo"), false)
	_, err := f.b.Call(context.Background(), "fake", "echo", nil)
	var u *UnavailableError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "tai mcp enable fake") {
		t.Fatalf("err = %v", err)
	}
}

func TestCall_SpillsLargeResults(t *testing.T) {
	f := newFixture(t)
	f.add(t, fakeEntry(t, "fake", "big"), true)
	ctx := context.Background()
	res, err := f.b.Call(ctx, "fake", "big", json.RawMessage(`{"size": 100000}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) > 8192 || !strings.Contains(res.Text, "spilled to record r") || !strings.Contains(res.Text, "100000 bytes") {
		t.Fatalf("result head = %.200s (len %d)", res.Text, len(res.Text))
	}
	id := strings.Fields(strings.SplitAfter(res.Text, "record ")[1])[0]
	r, err := f.store.Record(ctx, id)
	if err != nil || r.Size != 100000 {
		t.Fatalf("record %s: %+v %v", id, r.Size, err)
	}
	res, _ = f.b.Call(ctx, "fake", "big", json.RawMessage(`{"size": 65536}`))
	if len(res.Text) != 65536 {
		t.Fatalf("a result at exactly the cap spilled (len %d)", len(res.Text))
	}
}

// A spilled result's head never ends in half a character.
func TestCall_SpillHeadEndsOnACharacter(t *testing.T) {
	f := newFixture(t)
	text := strings.Repeat("a", spillHead-1) + strings.Repeat("é", wire.ResultMax)
	got, err := f.b.spill(context.Background(), "fake", "big", text)
	if err != nil {
		t.Fatal(err)
	}
	head := got[strings.IndexByte(got, '\n')+1:]
	if !utf8.ValidString(got) || head != strings.Repeat("a", spillHead-1) || !strings.Contains(got, fmt.Sprintf("the first %d bytes", spillHead-1)) {
		t.Fatalf("spilled head ends %q (valid UTF-8: %v)", head[max(0, len(head)-8):], utf8.ValidString(got))
	}
}

func TestCall_RedactsSubstitutedSecrets(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := f.store.SetSecret(ctx, vault.DefaultProfile, "API_TOKEN", "tok-from-the-vault-123", nil); err != nil {
		t.Fatal(err)
	}
	f.env["OTHER"] = "env-value-456789"
	e := fakeEntry(t, "fake", "env")
	e.Env["SECRET_A"] = "${API_TOKEN}"
	e.Env["SECRET_B"] = "${OTHER}"
	f.add(t, e, true)
	for name, want := range map[string]string{"SECRET_A": "[secret:API_TOKEN]", "SECRET_B": "[secret:OTHER]"} {
		res, err := f.invoke(ctx, "fake", "env", `{"name":"`+name+`"}`)
		if err != nil || res.Text != want {
			t.Fatalf("%s = %q, %v", name, res.Text, err)
		}
	}
}

func TestDrift_AddedAndChangedAreWithheld(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	e := fakeEntry(t, "fake", "echo", "fail")
	f.add(t, e, true)
	f.store.AddGrant(ctx, vault.DefaultProfile, vault.GrantTool, "mcp_fake_fail")

	// The server now lists fail redefined, echo removed, and a new tool.
	changed := []map[string]any{
		{"name": "fail", "description": "now does something else"},
		{"name": "image", "description": "new"},
	}
	b, _ := json.Marshal(changed)
	srv, _ := f.store.MCPServer(ctx, "fake")
	srv.Env["TAI_FAKE_TOOLS"] = string(b)
	reg := vault.MCPRegistration{Server: srv, Tools: nil}
	// Keep the old cache and pins: re-register only the launch.
	tl, _ := f.store.MCPTools(ctx, "fake")
	pins, _ := f.store.MCPPins(ctx, "fake")
	reg.Tools, reg.Pins = tl, pins
	reg.Server.ConsentedHash = LaunchHash(EntryOf(srv))
	if err := f.store.RegisterMCPServer(ctx, reg); err != nil {
		t.Fatal(err)
	}
	if err := f.store.SetMCPEnabled(ctx, "fake", vault.DefaultProfile, true); err != nil {
		t.Fatal(err)
	}

	_, err := f.b.Call(ctx, "fake", "image", nil) // connects: the fresh list arrives
	if err == nil || !strings.Contains(err.Error(), "new and withheld") {
		t.Fatalf("new tool: %v", err)
	}
	if _, err := f.b.Call(ctx, "fake", "fail", nil); err == nil || !strings.Contains(err.Error(), "changed since it was approved") {
		t.Fatalf("changed tool: %v", err)
	}
	if got := names(f.b.Tools()); got != "" {
		t.Fatalf("offered while withheld: %s", got)
	}
	if ok, _ := f.store.HasGrant(ctx, vault.DefaultProfile, vault.GrantTool, "mcp_fake_fail"); ok {
		t.Fatal("a redefined tool kept its grant")
	}
	pending, err := f.b.Pending(ctx, "fake")
	if err != nil || len(pending) != 2 {
		t.Fatalf("pending = %+v %v", pending, err)
	}
	if p := pending[0]; p.Tool != "fail" || p.Kind != "changed" || !strings.Contains(p.Diff, "+  \"description\": \"now does something else\"") {
		t.Fatalf("diff of fail:\n%s", p.Diff)
	}
	if pins, _ := f.store.MCPPins(ctx, "fake"); len(pins) != 1 {
		t.Fatalf("removed tool's pin kept: %v", pins)
	}
	if _, err := f.b.Approve(ctx, "fake"); err != nil {
		t.Fatal(err)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_fail,mcp_fake_image" {
		t.Fatalf("after approval: %s", got)
	}
}

func TestLaunchChange_AsksAgain(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.env["WHICH"] = "one"
	e := fakeEntry(t, "fake", "env")
	e.Args = []string{"${WHICH}"}
	f.add(t, e, true)
	f.b.Close()
	f.env["WHICH"] = "two" // the same entry now expands differently
	var shown []tools.Consent
	f.b.Confirm = func(_ context.Context, c tools.Consent) (bool, error) {
		shown = append(shown, c)
		return false, nil
	}
	_, err := f.b.Call(ctx, "fake", "env", json.RawMessage(`{"name":"X"}`))
	if !errors.Is(err, ErrNotConsented) || len(shown) != 1 || !strings.Contains(shown[0].Detail, "two") {
		t.Fatalf("err = %v, shown %+v", err, shown)
	}
	f.b.Confirm = func(context.Context, tools.Consent) (bool, error) { return true, nil }
	if _, err := f.b.Call(ctx, "fake", "env", json.RawMessage(`{"name":"X"}`)); err != nil {
		t.Fatal(err)
	}
	f.b.Confirm = nil // approved once: no question the next time
	f.b.Close()
	if _, err := f.b.Call(ctx, "fake", "env", json.RawMessage(`{"name":"X"}`)); err != nil {
		t.Fatal(err)
	}
}

func TestMaxTools_ExtrasListedNotOffered(t *testing.T) {
	f := newFixture(t)
	var many []string
	for i := range wire.MaxTools + 5 {
		many = append(many, "t_"+strconv.Itoa(i))
	}
	f.add(t, fakeEntry(t, "many", many...), true)
	var offered, unoffered int
	for _, tl := range f.b.Tools() {
		if tl.Unoffered {
			unoffered++
		} else {
			offered++
		}
	}
	if offered != wire.MaxTools || unoffered != 5 {
		t.Fatalf("offered %d, unoffered %d", offered, unoffered)
	}
	infos, _ := f.b.Servers(context.Background())
	if infos[0].Unoffered != 5 || infos[0].Tools != wire.MaxTools+5 {
		t.Fatalf("servers = %+v", infos)
	}
}

func TestNames(t *testing.T) {
	n := newNamer(func(s string) bool { return s == "mcp_x_taken" })
	cases := []struct{ server, tool, want string }{
		{"x", "taken", "mcp_x_taken_2"},
		{"Srv", "Get-Thing", "mcp_srv_get_thing"},
		{"srv", "get_thing", "mcp_srv_get_thing_2"},
		{"srv", "", "mcp_srv_tool"},
		{"srv", "!!!", "mcp_srv_tool_2"},
		{"srv", strings.Repeat("long", 30), ""},
	}
	for _, c := range cases {
		got := n.name(c.server, c.tool)
		if c.want != "" && got != c.want {
			t.Errorf("name(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
		if len(got) > maxName {
			t.Errorf("name(%q, %q) = %q is over %d", c.server, c.tool, got, maxName)
		}
	}
}

// TestServerOperations_AuditedByTheOwner: the mcp_* tools add, enable,
// disable and remove through the bridge's methods, which write the one
// row of each change, as `tai mcp` does through the same methods.
func TestServerOperations_AuditedByTheOwner(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	env := &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}}
	Attach(env, f.b)
	paste, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fake": map[string]any{"command": os.Args[0], "env": mcptest.Env("echo")}}})
	for _, step := range []struct{ tool, args string }{
		{AddName, string(mustJSON(map[string]string{"source": string(paste)}))},
		{EnableName, `{"server":"fake"}`},
		{DisableName, `{"server":"fake"}`},
		{RemoveName, `{"server":"fake"}`},
	} {
		res, err := tools.Invoke(ctx, tooltest.Find(t, AgentTools(), step.tool), tools.Call{Args: json.RawMessage(step.args), Env: env}, tools.Via{Origin: vault.OriginAgent})
		if err != nil || res.IsError {
			t.Fatalf("%s: %+v, %v", step.tool, res, err)
		}
	}
	rows, _ := f.store.AuditEntries(ctx, vault.AuditQuery{})
	var got []string
	for _, r := range rows {
		got = append(got, r.Kind+" "+r.Subject)
	}
	want := "mcp-add fake|tool mcp_add|mcp-enable fake|tool mcp_enable|mcp-disable fake|tool mcp_disable|mcp-remove fake|tool mcp_remove"
	if strings.Join(got, "|") != want {
		t.Errorf("audit rows:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// A bridge reaches a server through Transport when a test sets it: the
// scripted server runs in this process over client.NewInMemory, no
// subprocess, and registration, pins and calls go as over stdio. The
// entry's command does not exist: anything that tried to start it fails.
func TestTransport_InMemoryServer(t *testing.T) {
	f := newFixture(t)
	started := 0
	f.b.Transport = func(e config.Entry) client.Transport {
		started++
		tr, end := client.NewInMemory("in-memory " + e.Name)
		s := &mcptest.Server{Tools: []map[string]any{{"name": "echo", "description": "the echo tool"}},
			Send: func(m *wire.Message) { end.Send(m) }, Raw: func(line string) { end.SendRaw(line) }, Stderr: end.Stderr}
		end.Serve(s.Handle)
		t.Cleanup(end.Close)
		return tr
	}
	e := config.Entry{Name: "mem", Transport: config.Stdio, Command: "/nonexistent/tai-test-server", Source: config.SourceExplicit}
	if a := f.add(t, e, true); len(a.Tools) != 1 || !a.Enabled {
		t.Fatalf("added = %+v", a)
	}
	out, err := f.invoke(context.Background(), "mem", "echo", `{"message":"hi"}`)
	if err != nil || out.Status != vault.OutcomeOK || out.Text != "hi" {
		t.Fatalf("call = %+v, %v", out, err)
	}
	if started < 2 {
		t.Errorf("the in-memory transport was used %d times, want registration and the call", started)
	}
}
