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

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/tools"
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
