package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"tai/internal/mcp/wire"
)

// Tasks (the 2025-11-25 revision's, the session era): a tools/call that
// carries params.task is answered at once with a task, which tai polls
// with tasks/get at the server's pollInterval until it ends, then fetches
// its result with tasks/result. The server's questions for the task
// (elicitation) arrive while tasks/result is pending and are answered as
// any other. Ctrl-C or a limit sends tasks/cancel.

// The task methods tai sends and hears.
const (
	MethodTasksGet    = wire.MethodTasksGet
	MethodTasksResult = wire.MethodTasksResult
	MethodTasksCancel = wire.MethodTasksCancel
	MethodTaskStatus  = wire.MethodTaskStatus
)

// Task is a task's state as the server reports it.
type Task struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"` // working, input_required, completed, failed, cancelled
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	TTL           *int64 `json:"ttl"`
	PollInterval  *int64 `json:"pollInterval,omitempty"`
}

// Done reports whether the task reached a terminal status.
func (t Task) Done() bool {
	return t.Status == "completed" || t.Status == "failed" || t.Status == "cancelled"
}

// Bounds of polling a task: the server's pollInterval is kept within them.
const (
	minPoll     = 100 * time.Millisecond
	maxPoll     = 10 * time.Second
	defaultPoll = time.Second
)

// taskKey carries a call's task status callback in its context.
type taskKey struct{}

// WithTaskStatus returns ctx whose task-augmented calls report each status
// the task passes through to fn (from tasks/get and
// notifications/tasks/status). fn must not block.
func WithTaskStatus(ctx context.Context, fn func(Task)) context.Context {
	return context.WithValue(ctx, taskKey{}, fn)
}

// taskSupport is a listed tool's execution.taskSupport ("required",
// "optional"), "" when it has none or the server declared no task
// support for tools/call.
func taskSupport(caps wire.Capabilities, t wire.Tool) string {
	var raw struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	if json.Unmarshal(t.Raw, &raw) != nil || !TasksForToolCalls(caps) {
		return ""
	}
	return raw.Execution.TaskSupport
}

// TasksForToolCalls reports whether the server declared
// tasks.requests.tools.call.
func TasksForToolCalls(caps wire.Capabilities) bool {
	var t struct {
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	return json.Unmarshal(caps.Tasks, &t) == nil && wire.Declared(t.Requests.Tools.Call)
}

// callAsTask runs one tools/call as a task and returns the tool's result.
func (c *Client) callAsTask(ctx context.Context, name string, args json.RawMessage) (*wire.CallToolResult, error) {
	if c.Era().Name != wire.SessionEra.Name {
		return nil, fmt.Errorf("%s %s: the tool must run as a task, and tai runs tasks only in the session era so far", wire.MethodToolsCall, wire.Printable(name, 64))
	}
	report, _ := ctx.Value(taskKey{}).(func(Task))
	ctx, cancel := context.WithTimeoutCause(ctx, wire.CallMaxTotal,
		&TimeoutError{Method: wire.MethodToolsCall + " " + wire.Printable(name, 64), After: wire.CallMaxTotal, Cap: "MCP_CALL_MAX_TOTAL"})
	defer cancel()
	params := struct {
		wire.CallToolParams
		Task struct{} `json:"task"`
	}{CallToolParams: wire.CallToolParams{Name: name, Arguments: args}}
	var created struct {
		Task Task `json:"task"`
	}
	rctx, rcancel := c.withTimeout(ctx, wire.MethodToolsCall+" "+name)
	err := c.request(rctx, wire.MethodToolsCall, params, &created)
	rcancel()
	if err != nil {
		return nil, err
	}
	task := created.Task
	if task.TaskID == "" {
		return nil, fmt.Errorf("%s %s: the server answered a task request without a task", wire.MethodToolsCall, wire.Printable(name, 64))
	}
	if after, ok := ctx.Value(detachKey{}).(time.Duration); ok && after > 0 {
		return c.detachableWith(ctx, name, task, report, after, c.waitTask)
	}
	return c.waitTask(ctx, task, report)
}

// detachKey carries how long a task-augmented call waits before going to
// the background (WithDetach).
type detachKey struct{}

// WithDetach returns ctx whose task-augmented calls that are still running
// after after return a *DetachedError instead of waiting: the task goes
// on, polled by the client, and the error's Outcome delivers its end.
func WithDetach(ctx context.Context, after time.Duration) context.Context {
	return context.WithValue(ctx, detachKey{}, after)
}

// DetachedError is a task-augmented call that went to the background
// (WithDetach): Task is the task as it was created; Outcome delivers the
// tool's result, or why there is none, once.
type DetachedError struct {
	Tool    string
	Task    Task
	Outcome <-chan TaskOutcome
}

func (e *DetachedError) Error() string {
	return fmt.Sprintf("%s %s: task %s goes on in the background", wire.MethodToolsCall, wire.Printable(e.Tool, 64), wire.Printable(e.Task.TaskID, 64))
}

// TaskOutcome is how a task that went to the background ended.
type TaskOutcome struct {
	Result *wire.CallToolResult
	Err    error
}

// detachableWith waits for the task (with waitTask) on a goroutine of its own, bounded by
// MCP_CALL_MAX_TOTAL and the client's life rather than ctx: if it ends
// within after, or ctx ends first (the task is then cancelled), the call
// returns as any other; else it returns a *DetachedError and the task
// goes on.
func (c *Client) detachableWith(ctx context.Context, name string, task Task, report func(Task), after time.Duration,
	waitTask func(context.Context, Task, func(Task)) (*wire.CallToolResult, error)) (*wire.CallToolResult, error) {
	wctx, wcancel := context.WithTimeoutCause(context.WithoutCancel(ctx), wire.CallMaxTotal,
		&TimeoutError{Method: wire.MethodToolsCall + " " + wire.Printable(name, 64), After: wire.CallMaxTotal, Cap: "MCP_CALL_MAX_TOTAL"})
	stopped := context.AfterFunc(c.stopCtx, wcancel)
	out := make(chan TaskOutcome, 1)
	go func() {
		defer stopped()
		defer wcancel()
		r, err := waitTask(wctx, task, report)
		out <- TaskOutcome{r, err}
	}()
	timer := time.NewTimer(after)
	defer timer.Stop()
	select {
	case o := <-out:
		return o.Result, o.Err
	case <-ctx.Done():
		wcancel()
		<-out
		return nil, c.failure(ctx, wire.MethodToolsCall, ctx.Err())
	case <-timer.C:
		return nil, &DetachedError{Tool: name, Task: task, Outcome: out}
	}
}

// waitTask polls task until it ends and fetches its result, reporting
// each status it passes through to report (when set); ctx's end cancels
// the task.
func (c *Client) waitTask(ctx context.Context, task Task, report func(Task)) (*wire.CallToolResult, error) {
	id := task.TaskID
	statuses := make(chan Task, 8)
	c.mu.Lock()
	c.tasks[id] = statuses
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.tasks, id)
		c.mu.Unlock()
	}()
	seen := func(t Task) {
		t.StatusMessage = wire.Printable(t.StatusMessage, 200)
		if report != nil && (t.Status != task.Status || t.StatusMessage != task.StatusMessage) {
			report(t)
		}
		task = t
	}
	if report != nil {
		report(task)
	}
	for !task.Done() && task.Status != "input_required" {
		timer := time.NewTimer(pollEvery(task))
		select {
		case <-ctx.Done():
			timer.Stop()
			c.cancelTask(id)
			return nil, c.failure(ctx, wire.MethodToolsCall, ctx.Err())
		case t := <-statuses:
			timer.Stop()
			seen(t)
		case <-timer.C:
			var got Task
			gctx, gcancel := c.withTimeout(ctx, MethodTasksGet)
			err := c.request(gctx, MethodTasksGet, map[string]string{"taskId": id}, &got)
			gcancel()
			if err != nil {
				c.cancelTask(id)
				return nil, err
			}
			seen(got)
		}
	}
	// tasks/result waits for the end (answering the server's questions for
	// the task on the way) and carries the tool's result.
	var res wire.CallToolResult
	err := c.request(ctx, MethodTasksResult, map[string]string{"taskId": id}, &res)
	if err != nil {
		if ctx.Err() != nil {
			c.cancelTask(id)
		}
		return nil, err
	}
	if report != nil {
		report(Task{TaskID: id, Status: "completed"})
	}
	return &res, nil
}

// pollEvery is the wait before the next tasks/get: the server's
// pollInterval within bounds.
func pollEvery(t Task) time.Duration {
	if t.PollInterval == nil {
		return defaultPoll
	}
	return min(max(time.Duration(*t.PollInterval)*time.Millisecond, minPoll), maxPoll)
}

// cancelTask tells the server tai gave up on a task. The caller has
// already failed, so a failure to send is only noted.
func (c *Client) cancelTask(id string) {
	ctx, cancel := context.WithTimeout(c.stopCtx, cancelSendTimeout)
	defer cancel()
	if err := c.request(ctx, MethodTasksCancel, map[string]string{"taskId": id}, nil); err != nil {
		c.log.note("could not cancel task " + wire.Printable(id, 60) + ": " + err.Error())
	}
}

// taskStatus routes a notifications/tasks/status to the call polling that
// task; a status of no task tai polls is dropped.
func (c *Client) taskStatus(params json.RawMessage) {
	var t Task
	if json.Unmarshal(params, &t) != nil || t.TaskID == "" {
		return
	}
	c.mu.Lock()
	ch := c.tasks[t.TaskID]
	c.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- t:
	default: // the poll will see it
	}
}
