package bridge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// A tool that runs as a task (execution.taskSupport required) may take
// minutes. Where a person can be told later (the REPL sets OnTaskDone), a
// call whose task still runs after TaskBackground goes to the background:
// the model's call returns at once saying so, the client goes on polling
// the task (the connection held open), and when it ends OnTaskDone gets
// the result as the model would have, redacted, spilled past
// MCP_RESULT_MAX, and audited as the call's end. See docs/mcp.md,
// "Tasks".

// DefaultTaskBackground is how long a task-backed call runs before it
// goes to the background, when TaskBackground is unset.
const DefaultTaskBackground = wire.TaskBackground

// TaskDone is how a task that went to the background ended.
type TaskDone struct {
	Server, Tool, TaskID string
	// Text is the tool's result as the model gets it (redacted), or why
	// there is none; IsError when the tool failed or could not finish.
	Text    string
	IsError bool
	Took    time.Duration
}

func (b *Bridge) taskBackground() time.Duration {
	if b.TaskBackground > 0 {
		return b.TaskBackground
	}
	return DefaultTaskBackground
}

// detachable lets a task-backed call of ctx go to the background when the
// bridge can tell of its end.
func (b *Bridge) detachable(ctx context.Context) context.Context {
	if b.OnTaskDone == nil {
		return ctx
	}
	return client.WithDetach(ctx, b.taskBackground())
}

// toBackground takes a call that went to the background: c stays held
// until the task ends, when OnTaskDone is told. It returns what the model
// gets now.
func (b *Bridge) toBackground(server, tool string, c *conn, d *client.DetachedError) string {
	c.acquire()
	start := time.Now()
	go func() {
		defer b.release(server, c)
		o := <-d.Outcome
		done := TaskDone{Server: server, Tool: tool, TaskID: d.Task.TaskID, Took: time.Since(start) + b.taskBackground()}
		outcome := vault.OutcomeOK
		switch {
		case o.Err != nil:
			done.Text, done.IsError, outcome = fmt.Sprintf("the task failed: %v", o.Err), true, vault.OutcomeProtocolError
			if errors.Is(o.Err, client.ErrLost) || errors.Is(o.Err, client.ErrClosed) {
				b.drop(server, c)
			}
		default:
			done.Text, done.IsError = resultText(server, o.Result), o.Result.IsError
			if done.IsError {
				outcome = vault.OutcomeToolError
			}
		}
		ctx := context.Background()
		done.Text = b.Store.Redact(done.Text)
		if len(done.Text) > wire.ResultMax {
			if spilled, err := b.spill(ctx, server, tool, done.Text); err == nil {
				done.Text = spilled
			}
		}
		_ = b.Store.Audit(ctx, vault.AuditEntry{Profile: b.Profile, Kind: vault.KindMCPCall,
			Subject: server + "/" + tool + " (task " + wire.Printable(d.Task.TaskID, 64) + ", in the background)",
			Outcome: outcome, DurationMS: done.Took.Milliseconds(), Size: int64(len(done.Text))})
		b.OnTaskDone(done)
	}()
	return fmt.Sprintf("[MCP server %s runs %s as task %s, still %s after %s: it goes on in the background, and its result will come with the person's next message. Do not call the tool again for it.]",
		server, tool, wire.Printable(d.Task.TaskID, 64), wire.Printable(d.Task.Status, 40), b.taskBackground().Round(time.Second))
}
