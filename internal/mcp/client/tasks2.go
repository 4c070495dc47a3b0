package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"tai/internal/mcp/wire"
)

// The Tasks extension of the 2026-07-28 revision (SEP-2663), the
// stateless era: tai declares io.modelcontextprotocol/tasks among its
// clientCapabilities extensions, and the server alone decides whether a
// tools/call becomes a task. Its answer is then a CreateTaskResult
// (resultType "task", the task's fields at the top level), which tai
// polls with tasks/get at the server's pollIntervalMs until it ends:
// completed with the tool's result inlined, failed with a JSON-RPC error
// inlined, cancelled, or input_required with inputRequests, which tai
// answers as any other server question and delivers with tasks/update.
// Giving up sends tasks/cancel. See docs/mcp.md, "Tasks".

// TasksExtension names the Tasks extension in capabilities.
const TasksExtension = "io.modelcontextprotocol/tasks"

// MethodTasksUpdate delivers a task's answers (the Tasks extension).
const MethodTasksUpdate = wire.MethodTasksUpdate

// ResultTask is the resultType of a CreateTaskResult.
const ResultTask = "task"

// taskV2 is a task of the extension as tasks/get tells it.
type taskV2 struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	TTLMs          *int64                     `json:"ttlMs"`
	PollIntervalMs *int64                     `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result         *wire.CallToolResult       `json:"result,omitempty"`
	Error          *wire.Error                `json:"error,omitempty"`
}

// createdTaskV2 reads a tools/call answer that created a task.
func createdTaskV2(raw json.RawMessage) (taskV2, bool) {
	var t taskV2
	if json.Unmarshal(raw, &t) != nil || t.ResultType != ResultTask || t.TaskID == "" {
		return taskV2{}, false
	}
	return t, true
}

func (t taskV2) common() Task {
	out := Task{TaskID: t.TaskID, Status: t.Status, StatusMessage: wire.Printable(t.StatusMessage, 200), TTL: t.TTLMs}
	out.PollInterval = t.PollIntervalMs
	return out
}

// taskV2 waits for a created task, as callAsTask does for the 2025-11-25
// revision's (WithTaskStatus reports, WithDetach may send it to the
// background, ctx's end cancels it).
func (c *Client) taskV2(ctx context.Context, name string, created taskV2) (*wire.CallToolResult, error) {
	report, _ := ctx.Value(taskKey{}).(func(Task))
	ctx, cancel := context.WithTimeoutCause(ctx, wire.CallMaxTotal,
		&TimeoutError{Method: wire.MethodToolsCall + " " + wire.Printable(name, 64), After: wire.CallMaxTotal, Cap: "MCP_CALL_MAX_TOTAL"})
	defer cancel()
	wait := func(ctx context.Context, _ Task, report func(Task)) (*wire.CallToolResult, error) {
		return c.pollTaskV2(ctx, name, created, report)
	}
	if after, ok := ctx.Value(detachKey{}).(time.Duration); ok && after > 0 {
		return c.detachableWith(ctx, name, created.common(), report, after, wait)
	}
	return wait(ctx, created.common(), report)
}

// maxTaskInputRounds bounds the rounds of questions one task may ask.
const maxTaskInputRounds = 32

// pollTaskV2 polls the task until it ends, answering its questions.
func (c *Client) pollTaskV2(ctx context.Context, name string, t taskV2, report func(Task)) (*wire.CallToolResult, error) {
	what := wire.MethodToolsCall + " " + wire.Printable(name, 64) + ": task " + wire.Printable(t.TaskID, 64)
	last := t.common()
	if report != nil {
		report(last)
	}
	rounds := 0
	for {
		switch t.Status {
		case "completed":
			if t.Result == nil {
				return nil, fmt.Errorf("%s completed without a result", what)
			}
			return t.Result, nil
		case "failed":
			if t.Error != nil {
				return nil, fmt.Errorf("%s failed: %w", what, t.Error)
			}
			return nil, fmt.Errorf("%s failed", what)
		case "cancelled":
			return nil, fmt.Errorf("%s was cancelled by the server", what)
		case "input_required":
			if rounds++; rounds > maxTaskInputRounds {
				c.cancelTaskV2(t.TaskID)
				return nil, &InputError{Method: wire.MethodToolsCall, Why: fmt.Sprintf("its task asked again after %d rounds", maxTaskInputRounds)}
			}
			if err := c.answerTaskV2(ctx, t); err != nil {
				c.cancelTaskV2(t.TaskID)
				return nil, err
			}
		}
		timer := time.NewTimer(pollEvery(t.common()))
		select {
		case <-ctx.Done():
			timer.Stop()
			c.cancelTaskV2(t.TaskID)
			return nil, c.failure(ctx, wire.MethodToolsCall, ctx.Err())
		case <-timer.C:
		}
		var got taskV2
		gctx, gcancel := c.withTimeout(ctx, MethodTasksGet)
		err := c.request(gctx, MethodTasksGet, map[string]string{"taskId": t.TaskID}, &got)
		gcancel()
		if err != nil {
			c.cancelTaskV2(t.TaskID)
			return nil, err
		}
		if got.TaskID == "" {
			got.TaskID = t.TaskID
		}
		t = got
		if now := t.common(); report != nil && (now.Status != last.Status || now.StatusMessage != last.StatusMessage) {
			report(now)
			last = now
		}
	}
}

// answerTaskV2 answers a task's questions (as the server's own requests
// are answered) and delivers the answers with tasks/update.
func (c *Client) answerTaskV2(ctx context.Context, t taskV2) error {
	if len(t.InputRequests) == 0 {
		return nil // the next tasks/get will tell what it needs
	}
	if len(t.InputRequests) > maxInputRequests {
		return &InputError{Method: wire.MethodToolsCall, Why: fmt.Sprintf("its task asked %d questions in one round; tai answers at most %d", len(t.InputRequests), maxInputRequests)}
	}
	responses, why := c.answerEach(ctx, t.InputRequests, func(k, asked string, werr *wire.Error) string {
		if werr == nil {
			return fmt.Sprintf("its task's question %q names no method", wire.Printable(k, 40))
		}
		return fmt.Sprintf("its task asked %s, which tai cannot answer: %s", wire.Printable(asked, 40), werr.Message)
	})
	if why != "" {
		return &InputError{Method: wire.MethodToolsCall, Why: why}
	}
	uctx, cancel := c.withTimeout(ctx, MethodTasksUpdate)
	defer cancel()
	return c.request(uctx, MethodTasksUpdate, map[string]any{"taskId": t.TaskID, "inputResponses": responses}, nil)
}

// cancelTaskV2 tells the server tai gave up on a task; a failure is only
// noted.
func (c *Client) cancelTaskV2(id string) {
	ctx, cancel := context.WithTimeout(c.stopCtx, cancelSendTimeout)
	defer cancel()
	if err := c.request(ctx, MethodTasksCancel, map[string]string{"taskId": id}, nil); err != nil {
		c.log.note("could not cancel task " + wire.Printable(id, 60) + ": " + err.Error())
	}
}
