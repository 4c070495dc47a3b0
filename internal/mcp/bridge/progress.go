package bridge

import (
	"context"
	"sync"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// progressGap is the least time between two progress reports of one
// call passed on to the host: a server flooding notifications/progress
// costs the terminal ten lines a second at most.
const progressGap = 100 * time.Millisecond

// withProgress returns ctx whose calls to server report their progress to
// whoever listens in ctx (tools.WithProgress), at most one report per
// progressGap, and a stop that ends the reports: after it returns none
// is passed on.
func withProgress(ctx context.Context, server string) (context.Context, func()) {
	report := tools.ProgressOf(ctx)
	if report == nil {
		return ctx, func() {}
	}
	t := &throttle{every: progressGap, out: report}
	ctx = client.WithProgress(ctx, func(p wire.ProgressParams) {
		tp := tools.Progress{Server: server, Message: p.Message, Done: p.Progress}
		if p.Total != nil {
			tp.Total = *p.Total
		}
		t.offer(tp)
	})
	// A task's statuses are reported the same way: "task ID: status,
	// message" (the message is the server's, made printable by the
	// client; whoever shows it makes it visible).
	ctx = client.WithTaskStatus(ctx, func(k client.Task) {
		msg := "task " + k.TaskID + ": " + k.Status
		if k.StatusMessage != "" {
			msg += ", " + k.StatusMessage
		}
		t.offer(tools.Progress{Server: server, Message: msg})
	})
	return ctx, t.stop
}

// throttle passes on the first report at once, then at most one per
// interval: the latest of those that came in between, when the interval
// ends; a report that completes its total goes at once. out runs under
// the lock, so reports keep their order and none follows stop.
type throttle struct {
	every time.Duration
	out   func(tools.Progress)

	mu      sync.Mutex
	last    time.Time
	pending *tools.Progress
	timer   *time.Timer
	stopped bool
}

func (t *throttle) offer(p tools.Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	f, known := p.Fraction()
	since := time.Since(t.last)
	if since >= t.every || (known && f == 1) {
		t.pending = nil
		t.last = time.Now()
		t.out(p)
		return
	}
	t.pending = &p
	if t.timer == nil {
		t.timer = time.AfterFunc(t.every-since, t.flush)
	}
}

func (t *throttle) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer = nil
	if t.stopped || t.pending == nil {
		return
	}
	t.last = time.Now()
	t.out(*t.pending)
	t.pending = nil
}

func (t *throttle) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	if t.timer != nil {
		t.timer.Stop()
	}
}
