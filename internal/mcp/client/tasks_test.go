package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
)

// The tasks tests drive the scripted server's "tasks" script: a tool that
// must run as a task, polled, asking the person on the way.

func TestTasks_RequiredToolRunsAsATask(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "tasks"), Elicit: true,
		Ask: func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			if method != MethodElicit || !strings.Contains(string(params), "Which one?") {
				t.Errorf("asked %s %s", method, params)
			}
			return json.RawMessage(`{"action":"accept","content":{"pick":"b"}}`), nil
		}})
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	ctx := WithTaskStatus(context.Background(), func(t Task) {
		mu.Lock()
		seen = append(seen, t.Status+":"+t.StatusMessage)
		mu.Unlock()
	})
	res, err := c.CallTool(ctx, "research", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != `research: {"action":"accept","content":{"pick":"b"}}` {
		t.Fatalf("result %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(seen, ",") != "working:starting,working:gathering,input_required:needs you,completed:" {
		t.Fatalf("statuses %q", seen)
	}
}

func TestTasks_CancelledWhenTheCallerGivesUp(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	asked := make(chan struct{}, 1)
	c := connect(t, "", Options{Transport: inMemory(t, "tasks"), Elicit: true,
		Ask: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			asked <- struct{}{}
			<-release
			return json.RawMessage(`{"action":"cancel"}`), nil
		}})
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, "research", nil)
		done <- err
	}()
	select {
	case <-asked:
	case <-time.After(time.Minute):
		t.Fatal("the task never asked")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a given-up task call: %v", err)
	}
	if !strings.Contains(c.Stderr(), `cancelled task {"taskId":"task-1"}`) {
		t.Fatalf("tasks/cancel was not sent: %q", c.Stderr())
	}
}

func TestTasks_PollIntervalIsBounded(t *testing.T) {
	ms := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		in   *int64
		want time.Duration
	}{{nil, defaultPoll}, {ms(1), minPoll}, {ms(500), 500 * time.Millisecond}, {ms(1 << 40), maxPoll}} {
		if got := pollEvery(Task{PollInterval: tc.in}); got != tc.want {
			t.Errorf("pollInterval %v: %v, want %v", tc.in, got, tc.want)
		}
	}
}

// With WithDetach a task still running after the wait returns a
// *DetachedError at once; the task goes on and its outcome arrives on
// the error's channel, even after the caller's context ended.
func TestTasks_DetachedGoesOn(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "tasks"), Elicit: true,
		Ask: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"action":"accept","content":{"pick":"c"}}`), nil
		}})
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(WithDetach(context.Background(), time.Nanosecond))
	_, err := c.CallTool(ctx, "research", nil)
	cancel()
	var d *DetachedError
	if !errors.As(err, &d) || d.Task.TaskID != "task-1" || d.Tool != "research" {
		t.Fatalf("a detached call: %v", err)
	}
	select {
	case o := <-d.Outcome:
		if o.Err != nil || o.Result.Text() != `research: {"action":"accept","content":{"pick":"c"}}` {
			t.Fatalf("the outcome: %+v %v", o.Result, o.Err)
		}
	case <-time.After(time.Minute):
		t.Fatal("no outcome")
	}
	if strings.Contains(c.Stderr(), "cancelled task") {
		t.Errorf("the caller's end cancelled a task in the background: %q", c.Stderr())
	}
}

// A tool whose taskSupport is optional runs as a task only where the
// caller lets a long call go to the background (WithDetach); elsewhere it
// is a plain call.
func TestTasks_OptionalRunsAsATaskWhereItMayGoToTheBackground(t *testing.T) {
	// The hold names a file that exists (this test's binary): the held task
	// is done at once. A file of its own in t.TempDir would do as well but
	// for wine 8, which cannot delete it (Go's unlinkat: "Invalid function").
	hold, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(mcptest.EnvTaskHold, hold)
	c := connect(t, "", Options{Transport: inMemory(t, "tasks")})
	ctx := context.Background()
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	if res, err := c.CallTool(ctx, "quick", nil); err != nil || res.Text() != "quick inline" {
		t.Fatalf("a plain call: %+v %v", res, err)
	}
	if res, err := c.CallTool(WithDetach(ctx, time.Minute), "quick", nil); err != nil || res.Text() != "research done" {
		t.Fatalf("a call that may go to the background: %+v %v", res, err)
	}
}

// Over HTTP the Tasks extension's methods name their task in Mcp-Name.
func TestTasksV2_RequestsNameTheTask(t *testing.T) {
	for _, method := range []string{MethodTasksGet, MethodTasksUpdate, MethodTasksCancel} {
		h := http.Header{}
		(&httpTransport{}).setRequestHeaders(h, &wire.Message{Method: method, Params: json.RawMessage(`{"taskId":"t-9"}`)})
		if h.Get(wire.HeaderName) != "t-9" || h.Get(wire.HeaderMethod) != method {
			t.Errorf("%s headers %v", method, h)
		}
	}
}
