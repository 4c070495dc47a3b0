package bridge

import (
	"context"
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
