package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tai/internal/llm"
	"tai/internal/tools"
)

// TurnOptions tune one turn.
type TurnOptions struct {
	// MaxSteps overrides the agent's step cap for this turn.
	MaxSteps int
	// OnEvent receives the turn as it happens; may be nil (capture only).
	OnEvent func(Event)
}

// TurnResult is a finished turn.
type TurnResult struct {
	// Text is the final answer (the last assistant text of the turn).
	Text  string
	Steps int
	// Partial is set when the turn stopped before the model finished: the
	// step cap, a repeated call, a cancellation or a failure.
	Partial bool
	Reason  string
	// Usage adds up the turn's model calls; Context is the size of the
	// conversation after the last one (its prompt and answer), in tokens.
	Usage   llm.Usage
	Context int
}

// repeatLimit is how many identical consecutive tool calls end a turn.
const repeatLimit = 4

// RunTurn sends input to the model and runs the tool calls it makes until
// it answers without tools or the step cap is reached. The conversation
// stays valid for the next turn whatever happens: every tool call is
// answered, and a turn that fails before any step completed leaves no trace.
func (a *Agent) RunTurn(ctx context.Context, input string, opts TurnOptions) (TurnResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := &turn{a: a, opts: opts, input: input, start: len(a.messages)}
	return t.run(ctx)
}

type turn struct {
	a       *Agent
	opts    TurnOptions
	input   string
	start   int // index of this turn's first message
	flushed int // messages already given to History
	traffic string
	last    string // signature of the previous tool call
	repeats int
	// offered is the tool list of the turn so far: it only grows, so the
	// prompt's prefix stays the same from step to step (see grow).
	offered []llm.ToolSpec
	usage   llm.Usage
	context int
	// origin is the audit's origin of the calls, "" for the agent's.
	origin string
}

func (t *turn) emit(e Event) {
	if t.opts.OnEvent != nil {
		t.opts.OnEvent(e)
	}
}

func (t *turn) maxSteps() int {
	switch {
	case t.opts.MaxSteps > 0:
		return t.opts.MaxSteps
	case t.a.MaxSteps > 0:
		return t.a.MaxSteps
	}
	return DefaultMaxSteps
}

func (t *turn) run(ctx context.Context) (TurnResult, error) {
	a := t.a
	if a.Env != nil && a.Env.State != nil {
		// Turn-scoped tool state (the tools tool_search loaded) belongs to
		// the turn that created it; a new request starts from the selector.
		a.Env.State.NewTurn()
	}
	a.messages = append(a.messages, llm.Message{Role: llm.RoleUser, Content: t.input})
	t.flushed = t.start
	var res TurnResult
	for step := 1; step <= t.maxSteps(); step++ {
		res.Steps = step
		resp, err := t.complete(ctx, step)
		t.account(ctx, step, resp.Usage)
		res.Usage, res.Context = t.usage, t.context
		if err != nil {
			return t.fail(ctx, res, err)
		}
		msg := resp.Message
		msg.Role = llm.RoleAssistant
		a.messages = append(a.messages, msg)
		if msg.Content != "" {
			res.Text = msg.Content
		}
		if len(msg.ToolCalls) == 0 {
			if strings.TrimSpace(msg.Content) == "" {
				t.emit(Event{Type: EventNotice, Text: "the model returned an empty answer"})
			}
			t.flush(ctx)
			t.emit(Event{Type: EventFinal, Text: res.Text, Steps: step, Usage: &res.Usage, Context: res.Context})
			return res, nil
		}
		stop := t.runCalls(ctx, msg.ToolCalls)
		t.flush(ctx)
		if ctx.Err() != nil {
			return t.fail(ctx, res, ctx.Err())
		}
		if stop != "" {
			return t.finishPartial(ctx, res, stop), nil
		}
	}
	return t.finishPartial(ctx, res, fmt.Sprintf(
		"stopped after %d steps (the step cap); send another message to continue, or raise --max-steps", t.maxSteps())), nil
}

// complete runs one model call with the tools the selector offers.
func (t *turn) complete(ctx context.Context, step int) (llm.Response, error) {
	a := t.a
	budget := a.ContextBudget
	if budget <= 0 {
		budget = DefaultContextBudget
	}
	if a.Selector != nil {
		var picked []llm.ToolSpec
		for _, tl := range a.Selector.Select(ctx, SelectQuery{Input: t.input, Traffic: t.traffic, Step: step, Env: a.Env}) {
			picked = append(picked, llm.ToolSpec{Name: tl.Name, Description: tl.Description, Parameters: tl.Schema})
		}
		if growOffered {
			t.offered = grow(t.offered, picked)
		} else {
			t.offered = picked
		}
	}
	specs := t.offered
	t.compactIfFull(ctx, specs)
	if n := a.elide(ctx, len(a.messages)-1, budget); n > 0 {
		t.emit(Event{Type: EventNotice, Text: fmt.Sprintf("elided %d old tool result(s) to stay within the context budget", n)})
	}
	t.emit(Event{Type: EventWaiting, Busy: true, Label: "thinking"})
	waiting := true
	resp, err := a.Client.Complete(ctx, llm.Request{
		System:   a.System,
		Messages: a.messages,
		Tools:    specs,
		OnEvent: func(e llm.Event) {
			switch e.Kind {
			case llm.EventText:
				if waiting {
					waiting = false
					t.emit(Event{Type: EventWaiting})
				}
				t.emit(Event{Type: EventText, Text: e.Text})
			case llm.EventRetry:
				t.emit(Event{Type: EventNotice, Text: fmt.Sprintf("model call failed (%v); retrying in %s", e.Err, e.Wait.Round(100e6))})
			}
		},
	})
	if waiting {
		t.emit(Event{Type: EventWaiting})
	}
	return resp, err
}

// flush gives the turn's new messages to History. A cancelled turn
// still records what it did, so ctx's cancellation does not stop it.
func (t *turn) flush(ctx context.Context) {
	a := t.a
	if a.History == nil || t.flushed >= len(a.messages) {
		t.flushed = len(a.messages)
		return
	}
	if err := a.History.Append(context.WithoutCancel(ctx), a.messages[t.flushed:]...); err != nil {
		t.emit(Event{Type: EventNotice, Text: "history not saved: " + err.Error()})
	}
	t.flushed = len(a.messages)
}

// fail ends a turn on an error. Before any step completed, the turn is
// rolled back so the person can simply retry; after, an assistant note
// records the interruption so the history stays well-formed.
func (t *turn) fail(ctx context.Context, res TurnResult, err error) (TurnResult, error) {
	a := t.a
	reason := err.Error()
	if errors.Is(err, context.Canceled) {
		reason = "cancelled"
	} else if errors.Is(err, context.DeadlineExceeded) {
		reason = "the deadline passed"
	}
	if len(a.messages) == t.start+1 {
		a.messages = a.messages[:t.start]
		t.flushed = t.start
		return TurnResult{Steps: res.Steps, Partial: true, Reason: reason, Usage: res.Usage}, err
	}
	a.messages = append(a.messages, llm.Message{Role: llm.RoleAssistant, Content: "(turn interrupted: " + reason + ")"})
	t.flush(ctx)
	res.Partial, res.Reason = true, reason
	t.emit(Event{Type: EventFinal, Text: res.Text, Steps: res.Steps, Partial: true, Reason: reason, Usage: &res.Usage, Context: res.Context})
	return res, err
}

func (t *turn) finishPartial(ctx context.Context, res TurnResult, reason string) TurnResult {
	a := t.a
	a.messages = append(a.messages, llm.Message{Role: llm.RoleAssistant, Content: "(" + reason + ")"})
	t.flush(ctx)
	res.Partial, res.Reason = true, reason
	t.emit(Event{Type: EventNotice, Text: reason})
	t.emit(Event{Type: EventFinal, Text: res.Text, Steps: res.Steps, Partial: true, Reason: reason, Usage: &res.Usage, Context: res.Context})
	return res
}

// lookup finds a tool the model named.
func (t *turn) lookup(name string) (*tools.Tool, bool) {
	if t.a.Tools == nil {
		return nil, false
	}
	return t.a.Tools.Lookup(name)
}

// growOffered is false only in the benchmark that measures caching as it
// was before the tool list grew (cache_bench_test.go).
var growOffered = true

// maxOffered bounds the tool list a turn accumulates. Past it, the list
// starts again from the step's own selection: one step's prompt is not
// read from the cache, and the model is not offered a flood of tools.
const maxOffered = 48

// grow is the turn's tool list after a step's selection: the tools already
// offered, in their order, then the newly picked ones. Providers cache a
// prompt by its prefix, and the tools lead the prompt, so a tool dropped
// or moved would make every later byte, the system prompt and the whole
// history, a cache miss.
func grow(offered, picked []llm.ToolSpec) []llm.ToolSpec {
	have := make(map[string]bool, len(offered))
	for _, s := range offered {
		have[s.Name] = true
	}
	out := offered
	for _, s := range picked {
		if !have[s.Name] {
			out = append(out, s)
			have[s.Name] = true
		}
	}
	if len(out) > maxOffered {
		return picked
	}
	return out
}

// account adds one model call's usage to the turn, reports it, and keeps
// it with the conversation's history.
func (t *turn) account(ctx context.Context, step int, u llm.Usage) {
	if u == (llm.Usage{}) {
		return
	}
	a := t.a
	t.usage = t.usage.Add(u)
	t.context = u.InputTokens + u.OutputTokens
	a.sized, a.sizedAt = t.context, len(a.messages)+1
	t.emit(Event{Type: EventUsage, Steps: step, Usage: &u, Context: t.context})
	if r, ok := a.History.(UsageRecorder); ok {
		if err := r.RecordUsage(context.WithoutCancel(ctx), a.Model, u); err != nil {
			t.emit(Event{Type: EventNotice, Text: "usage not saved: " + err.Error()})
		}
	}
}
