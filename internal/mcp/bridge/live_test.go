package bridge

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// featuresEntry runs the fake server's "features" script (progress,
// logging, roots, list changes) with tools.
func featuresEntry(t *testing.T, name string, toolNames ...string) config.Entry {
	e := fakeEntry(t, name, toolNames...)
	e.Env[mcptest.EnvScript] = "features"
	return e
}

// reports collects what a call reports of its progress.
type reports struct {
	mu  sync.Mutex
	got []tools.Progress
}

func (r *reports) add(p tools.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, p)
}

func (r *reports) all() []tools.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tools.Progress(nil), r.got...)
}

// A bridged call's progress reaches whoever listens in its context, named
// by its server; the report that completes the total always arrives, and
// nothing arrives once the call returned.
func TestCall_ProgressReachesTheCaller(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "progress"), true)
	var r reports
	ctx := tools.WithProgress(context.Background(), r.add)
	res, err := f.invoke(ctx, "feat", "progress", `{}`)
	if err != nil || res.Text != "done" {
		t.Fatalf("progress = %+v, %v", res, err)
	}
	got := r.all()
	if len(got) < 2 {
		t.Fatalf("reports %+v: want the first and the last", got)
	}
	if diff := cmp.Diff(tools.Progress{Server: "feat", Message: "step 1", Done: 1, Total: 3}, got[0]); diff != "" {
		t.Errorf("first report (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tools.Progress{Server: "feat", Message: "step 3", Done: 3, Total: 3}, got[len(got)-1]); diff != "" {
		t.Errorf("last report (-want +got):\n%s", diff)
	}
	if n := len(r.all()); n != len(got) {
		t.Errorf("%d reports arrived after the call returned", n-len(got))
	}
}

// A server flooding progress costs the caller a few reports, not one
// each: at most one per progressGap, and the last one.
func TestCall_ProgressFloodIsThrottled(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "progress"), true)
	var r reports
	ctx := tools.WithProgress(context.Background(), r.add)
	if _, err := f.invoke(ctx, "feat", "progress", `{"steps":20000}`); err != nil {
		t.Fatal(err)
	}
	got := r.all()
	if len(got) == 0 || len(got) > 200 || got[len(got)-1].Done != 20000 {
		t.Fatalf("%d reports for 20000 notifications, last %+v", len(got), got[len(got)-1:])
	}
}

// toolsFile writes a tool list for a server launched with EnvToolsFile.
func toolsFile(t *testing.T, path string, names ...string) {
	t.Helper()
	var list []map[string]any
	for _, n := range names {
		list = append(list, map[string]any{"name": n, "description": "the " + n + " tool"})
	}
	b, _ := json.Marshal(list)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// featuresFromFile is the "features" script listing the tools of a file
// it reads again at each tools/list.
func featuresFromFile(t *testing.T, name, path string) config.Entry {
	e := featuresEntry(t, name)
	delete(e.Env, mcptest.EnvTools)
	e.Env[mcptest.EnvToolsFile] = path
	return e
}

// A tool that appears after notifications/tools/list_changed is listed
// before the next call, run through the pin check as at a start: it is
// withheld until approved and the person is told once.
func TestListChanged_NewToolIsWithheldAndNoticed(t *testing.T) {
	f := newFixture(t)
	var notices []string
	var mu sync.Mutex
	f.b.Notice = func(s string) { mu.Lock(); notices = append(notices, s); mu.Unlock() }
	list := filepath.Join(t.TempDir(), "tools.json")
	toolsFile(t, list, "changed", "echo")
	f.add(t, featuresFromFile(t, "feat", list), true)
	ctx := context.Background()
	if _, err := f.invoke(ctx, "feat", "echo", `{"message":"first"}`); err != nil {
		t.Fatal(err)
	}
	toolsFile(t, list, "changed", "echo", "fresh")
	if res, err := f.invoke(ctx, "feat", "changed", `{}`); err != nil || res.Text != "ok" {
		t.Fatalf("changed = %+v, %v", res, err)
	}
	if res, err := f.invoke(ctx, "feat", "echo", `{"message":"after"}`); err != nil || res.Text != "after" {
		t.Fatalf("echo after the change = %+v, %v", res, err)
	}
	mu.Lock()
	got := append([]string(nil), notices...)
	mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], "MCP server feat lists tools you have not approved (new: fresh)") {
		t.Fatalf("notices = %q", got)
	}
	if tl, ok := f.b.Lookup("mcp_feat_fresh"); ok && tl.Description != "withheld until reviewed" {
		t.Error("the new tool is callable before it was approved")
	}
	if names := names(f.b.Tools()); !strings.Contains(names, "mcp_feat_echo") || strings.Contains(names, "fresh") {
		t.Errorf("offered %s", names)
	}
}

// A flood of list_changed costs a re-listing or two, not one each.
func TestListChanged_FloodIsCoalesced(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "changed", "lists"), true)
	ctx := context.Background()
	if _, err := f.invoke(ctx, "feat", "changed", `{"times":2000}`); err != nil {
		t.Fatal(err)
	}
	res, err := f.invoke(ctx, "feat", "lists", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	// One at the start, then one or two for the flood.
	if n, _ := strconv.Atoi(res.Text); n < 2 || n > 3 {
		t.Fatalf("the server answered tools/list %s times for 2000 list changes", res.Text)
	}
}

// Prompts and resources changes mark those lists stale for whoever reads
// them; the tools stay as they were.
func TestListChanged_PromptsAndResourcesMarkedStale(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "changed", "lists"), true)
	ctx := context.Background()
	if _, err := f.invoke(ctx, "feat", "changed", `{"times":0,"kinds":["prompts","resources"]}`); err != nil {
		t.Fatal(err)
	}
	c, err := f.b.client(ctx, "feat")
	if err != nil {
		t.Fatal(err)
	}
	if !c.stale("prompts") || !c.stale("resources") {
		t.Errorf("stale prompts %v, resources %v", c.stale("prompts"), c.stale("resources"))
	}
	if !c.settle("prompts") || c.stale("prompts") {
		t.Error("settle does not clear the mark")
	}
}

// notices collects what Bridge.Notice shows.
type notices struct {
	mu  sync.Mutex
	got []string
}

func (n *notices) add(s string) { n.mu.Lock(); n.got = append(n.got, s); n.mu.Unlock() }

func (n *notices) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.got...)
}

// A server's log lines are kept in the vault at the level asked for
// (warning by default, then its log_level setting), redacted and cut;
// one at error or above is a notice naming the server.
func TestLogs_KeptRedactedCutAndNoticed(t *testing.T) {
	f := newFixture(t)
	var n notices
	f.b.LogNotice = n.add
	f.add(t, featuresEntry(t, "feat", "log"), true)
	f.store.AddKnown("TOKEN", "tok-1234567890-secret")
	ctx := context.Background()
	long, _ := json.Marshal(strings.Repeat("é", wire.LogLineMax))
	if _, err := f.invoke(ctx, "feat", "log", `{"data":"leaked tok-1234567890-secret here\u001b[2J"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.invoke(ctx, "feat", "log", `{"level":"info","data":`+string(long)+`}`); err != nil {
		t.Fatal(err)
	}
	f.b.Close()
	lines, err := f.store.MCPLogs(ctx, "feat", 0, 100)
	if err != nil || len(lines) != 4 {
		t.Fatalf("kept %+v, %v", lines, err)
	}
	// The registration's connection logged too.
	lines = lines[1:]
	if lines[0].Text != "boom at warning" || lines[0].Level != "error" || lines[0].Logger != "fake" {
		t.Errorf("the setLevel answer's line: %+v", lines[0])
	}
	if strings.Contains(lines[1].Text, "tok-1234567890") || !strings.Contains(lines[1].Text, "leaked [") {
		t.Errorf("not redacted: %q", lines[1].Text)
	}
	if len(lines[2].Text) > wire.LogLineMax || !strings.HasSuffix(lines[2].Text, "…[cut]") || !utf8.ValidString(lines[2].Text) {
		t.Errorf("a long line kept as %d bytes ending %q", len(lines[2].Text), lines[2].Text[len(lines[2].Text)-12:])
	}
	got := n.all()
	want := []string{"MCP server feat logged error: boom at warning — see `tai mcp logs feat`",
		"MCP server feat logged error: boom at warning — see `tai mcp logs feat`",
		"MCP server feat logged error: leaked [secret:TOKEN] here\\x1b[2J — see `tai mcp logs feat`"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}

	if err := f.b.Set(ctx, "feat", map[string]string{SettingLogLevel: "debug"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.invoke(ctx, "feat", "log", `{"level":"debug"}`); err != nil {
		t.Fatal(err)
	}
	f.b.Close()
	lines, _ = f.store.MCPLogs(ctx, "feat", lines[2].ID, 100)
	if len(lines) != 2 || lines[0].Text != "boom at debug" || lines[1].Level != "debug" {
		t.Fatalf("after log_level=debug: %+v", lines)
	}
	if rows := f.audited(t, vault.KindMCPSet); len(rows) != 1 || rows[0].Subject != "feat:log_level=debug" {
		t.Errorf("audit %+v", rows)
	}
}

// A flood of log lines keeps MCP_MAX_LOG_LINES, the newest, and shows a
// few notices, not one a line.
func TestLogs_FloodIsBounded(t *testing.T) {
	f := newFixture(t)
	var n notices
	f.b.LogNotice = n.add
	f.add(t, featuresEntry(t, "feat", "log"), true)
	ctx := context.Background()
	if _, err := f.invoke(ctx, "feat", "log", `{"times":1500}`); err != nil {
		t.Fatal(err)
	}
	f.b.Close()
	lines, err := f.store.MCPLogs(ctx, "feat", 0, 5000)
	if err != nil || len(lines) != wire.MaxLogLines || lines[len(lines)-1].Text != "line 1499" {
		t.Fatalf("kept %d lines, last %+v, %v", len(lines), lines[len(lines)-1:], err)
	}
	if got := n.all(); len(got) > noticeBurst {
		t.Errorf("%d notices for a flood: %q", len(got), got[len(got)-1])
	}
}

// Bad settings are refused whole, naming what is known.
func TestSet_RefusesUnknownKeysAndValues(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "log"), true)
	ctx := context.Background()
	for set, want := range map[string]string{
		"colour=blue":              `no setting "colour": tai mcp set knows log_level, roots, sandbox, sandbox_hosts, startup_timeout, timeout`,
		"sandbox_hosts=https://x/": `sandbox_hosts: "https://x/" is not a host: write a name or an address, with :PORT for one port; give hosts separated by commas, or nothing for the whole network`,
		"log_level=loud":           `log_level="loud": write one of debug, info, notice, warning, error, critical, alert, emergency`,
		"roots=sometimes":          `roots="sometimes": write one of off`,
	} {
		k, v, _ := strings.Cut(set, "=")
		err := f.b.Set(ctx, "feat", map[string]string{SettingRoots: "off", k: v})
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", set, err, want)
		}
	}
	if s, _ := f.b.SettingsOf(ctx, "feat"); s[SettingRoots] != "on" || s[SettingLogLevel] != "warning" {
		t.Errorf("a refused set changed %v", s)
	}
}

// A server asking roots/list gets the host's workspace; told the
// workspace changed, it hears notifications/roots/list_changed; with
// roots=off tai declares no roots to it and answers -32601.
func TestRoots_OfferedChangedAndTurnedOff(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	roots := []wire.Root{{URI: "file:///work/a%20b", Name: "a b"}}
	f.b.Roots = func() []wire.Root { mu.Lock(); defer mu.Unlock(); return append([]wire.Root(nil), roots...) }
	f.add(t, featuresEntry(t, "feat", "roots", "heard"), true)
	ctx := context.Background()
	res, err := f.invoke(ctx, "feat", "roots", `{}`)
	if err != nil || !strings.Contains(res.Text, `"result":{"roots":[{"uri":"file:///work/a%20b","name":"a b"}]}`) {
		t.Fatalf("roots = %+v, %v", res, err)
	}
	mu.Lock()
	roots = append(roots, wire.Root{URI: "file:///more", Name: "more"})
	mu.Unlock()
	f.b.RootsChanged(ctx)
	res, err = f.invoke(ctx, "feat", "heard", `{}`)
	if err != nil || !strings.Contains(res.Text, wire.MethodRootsListChanged) {
		t.Fatalf("heard = %+v, %v", res, err)
	}
	if res, _ := f.invoke(ctx, "feat", "roots", `{}`); !strings.Contains(res.Text, `"file:///more"`) {
		t.Fatalf("roots after the change = %s", res.Text)
	}
	rows, err := f.store.AuditEntries(ctx, vault.AuditQuery{Kind: vault.KindMCPRoots})
	if err != nil || len(rows) != 2 || rows[0].Subject != "feat" || rows[0].Outcome != vault.OutcomeOK || rows[0].Digest == "" ||
		rows[0].Size+rows[1].Size != 3 {
		t.Fatalf("roots audit rows %+v, %v; want one per answer, the server as subject, counting the roots told", rows, err)
	}

	if err := f.b.Set(ctx, "feat", map[string]string{SettingRoots: "off"}); err != nil {
		t.Fatal(err)
	}
	f.b.Close()
	res, err = f.invoke(ctx, "feat", "roots", `{}`)
	if err != nil || !strings.Contains(res.Text, `"code":-32601`) || strings.Contains(res.Text, "file://") {
		t.Fatalf("roots with roots=off = %+v, %v", res, err)
	}
	f.b.RootsChanged(ctx)
	if res, _ := f.invoke(ctx, "feat", "heard", `{}`); strings.Contains(res.Text, wire.MethodRootsListChanged) {
		t.Errorf("a server without roots heard %s", res.Text)
	}
	refused, err := f.store.AuditEntries(ctx, vault.AuditQuery{Kind: vault.KindMCPRefused})
	if err != nil || len(refused) != 1 || refused[0].Subject != "feat/roots/list" || refused[0].Outcome != vault.OutcomeRefused {
		t.Errorf("refused rows %+v, %v; want the roots/list tai refused", refused, err)
	}
}

// A stateless-era server hears a subscriptions/listen for the lists it
// declared listChanged for, once tai connected for a call.
func TestListChanged_StatelessServerIsListenedTo(t *testing.T) {
	f := newFixture(t)
	e := featuresEntry(t, "feat", "echo")
	e.Env[mcptest.EnvStateless] = "0"
	f.add(t, e, true)
	logged := make(chan string, 16)
	f.b.OnEvent = func(e Event) {
		if e.Method == wire.MethodLogMessage {
			logged <- string(e.Params)
		}
	}
	if _, err := f.invoke(context.Background(), "feat", "echo", `{"message":"hi"}`); err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true},"level":"info","logger":"listen"}`
	select {
	case got := <-logged:
		if !strings.Contains(got, want) {
			t.Fatalf("the server listens for %s, want %s", got, want)
		}
	case <-time.After(time.Minute):
		t.Fatal("no subscriptions/listen reached the server")
	}
}

// A resource read reports its progress as a tool call does.
func TestReadResource_ProgressReachesTheCaller(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "echo"), true)
	var r reports
	ctx := tools.WithProgress(context.Background(), r.add)
	if _, err := f.b.ReadResource(ctx, "feat", "test://a"); err != nil {
		t.Fatal(err)
	}
	want := []tools.Progress{{Server: "feat", Message: "reading a", Done: 1, Total: 1}}
	if diff := cmp.Diff(want, r.all()); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}
