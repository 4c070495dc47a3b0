package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"tai/internal/llm"
	"tai/internal/tools"
)

// Subagent defaults.
const (
	DefaultForkSteps   = 12
	DefaultForkTimeout = 300 * time.Second
	maxForkDepth       = 2
)

// Runner is default_runner: it runs child agents on the parent's profile,
// model and approval policy, each with a step cap and a deadline, and keeps
// each transcript as a vault record. It implements tools.Subagents.
type Runner struct {
	Parent *Agent
	// Timeout is the deadline of a fork that names none; 0 means
	// DefaultForkTimeout.
	Timeout time.Duration
	depth   int

	mu   sync.Mutex
	jobs map[string]*forkJob
	seq  int
}

var _ tools.Subagents = (*Runner)(nil)

// NewRunner returns the default runner for parent.
func NewRunner(parent *Agent) *Runner { return &Runner{Parent: parent} }

type forkJob struct {
	id, brief string
	cancel    context.CancelFunc
	done      chan struct{}
	res       tools.ForkResult
	err       error
}

const forkSystem = `You are a subagent of tai, working on one task for a parent agent.
Work only on the brief below, using the tools you are given. When done,
answer with the result the parent needs, concisely; do not ask questions.`

// Fork runs a child to completion and returns its answer. A child that
// reaches its step cap or deadline returns what it had, marked Partial.
func (r *Runner) Fork(ctx context.Context, req tools.ForkRequest) (tools.ForkResult, error) {
	if r.depth >= maxForkDepth {
		return tools.ForkResult{}, fmt.Errorf("subagents may not fork more than %d levels deep", maxForkDepth)
	}
	steps := req.MaxSteps
	if steps <= 0 {
		steps = DefaultForkSteps
	}
	timeout := DefaultForkTimeout
	if r.Timeout > 0 {
		timeout = r.Timeout
	}
	if req.Timeout > 0 {
		timeout = time.Duration(req.Timeout) * time.Second
	}
	child := r.child(req, steps)
	defer child.Env.State.Close() // the child's jobs end with it
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := child.RunTurn(cctx, req.Brief, TurnOptions{})
	out := tools.ForkResult{Answer: res.Text, Partial: res.Partial, Reason: res.Reason}
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		out.Partial, out.Reason = true, fmt.Sprintf("the subagent's deadline of %s passed", timeout)
	case err != nil && ctx.Err() != nil:
		return out, ctx.Err()
	case err != nil:
		out.Partial, out.Reason = true, "the subagent failed: "+err.Error()
	}
	if out.Answer == "" && out.Partial {
		out.Answer = "(no answer: " + out.Reason + ")"
	}
	out.RecordID = r.saveTranscript(context.WithoutCancel(ctx), req.Brief, child.Messages(), out)
	return out, nil
}

// child builds the child agent for req.
func (r *Runner) child(req tools.ForkRequest, steps int) *Agent {
	p := r.Parent
	reg := p.Tools
	var sel Selector = p.Selector
	if req.Tools != nil {
		reg, sel = req.Tools, AllTools{Registry: req.Tools}
	}
	var env *tools.Env
	if p.Env != nil {
		e := *p.Env
		env = &e
		env.State = &tools.State{}
	} else {
		env = &tools.Env{State: &tools.State{}}
	}
	env.Tools = reg
	c := &Agent{Client: p.Client, Tools: reg, Selector: sel, Approver: p.Approver, Env: env,
		System: forkSystem, MaxSteps: steps, ContextBudget: p.ContextBudget}
	sub := &Runner{Parent: c, depth: r.depth + 1}
	env.Subagents = sub
	if req.Tools != nil {
		env.Subagents = nil // a restricted child gets nothing beyond its tools
	}
	return c
}

func (r *Runner) saveTranscript(ctx context.Context, brief string, msgs []llm.Message, res tools.ForkResult) string {
	env := r.Parent.Env
	if env == nil || env.Store == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "subagent transcript\nbrief: %s\n", brief)
	if res.Partial {
		fmt.Fprintf(&b, "partial: %s\n", res.Reason)
	}
	for _, m := range msgs {
		fmt.Fprintf(&b, "\n[%s]", m.Role)
		if m.Name != "" {
			fmt.Fprintf(&b, " %s", m.Name)
		}
		b.WriteString("\n")
		if m.Content != "" {
			b.WriteString(m.Content + "\n")
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "call %s %s\n", c.Name, c.Arguments)
		}
	}
	id, err := env.Store.PutRecord(ctx, env.Profile, "transcript", env.Store.Redact(b.String()))
	if err != nil {
		return ""
	}
	return id
}

// Start runs a child in the background and returns its id.
func (r *Runner) Start(ctx context.Context, req tools.ForkRequest) (string, error) {
	r.mu.Lock()
	if r.jobs == nil {
		r.jobs = map[string]*forkJob{}
	}
	r.seq++
	id := fmt.Sprintf("a%d", r.seq)
	jctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	j := &forkJob{id: id, brief: req.Brief, cancel: cancel, done: make(chan struct{})}
	r.jobs[id] = j
	r.mu.Unlock()
	go func() {
		defer close(j.done)
		defer cancel()
		j.res, j.err = r.Fork(jctx, req)
	}()
	return id, nil
}

// Wait blocks until the child id finishes or ctx ends.
func (r *Runner) Wait(ctx context.Context, id string) (tools.ForkResult, error) {
	j, err := r.job(id)
	if err != nil {
		return tools.ForkResult{}, err
	}
	select {
	case <-j.done:
		return j.res, j.err
	case <-ctx.Done():
		return tools.ForkResult{}, ctx.Err()
	}
}

// List describes every child started with Start.
func (r *Runner) List() []tools.ForkStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []tools.ForkStatus
	for i := 1; i <= r.seq; i++ {
		j, ok := r.jobs[fmt.Sprintf("a%d", i)]
		if !ok {
			continue
		}
		state := "running"
		select {
		case <-j.done:
			state = "done"
			if j.err != nil {
				state = "cancelled"
			} else if j.res.Partial {
				state = "partial"
			}
		default:
		}
		out = append(out, tools.ForkStatus{ID: j.id, Brief: j.brief, State: state})
	}
	return out
}

// Cancel stops a background child.
func (r *Runner) Cancel(id string) error {
	j, err := r.job(id)
	if err != nil {
		return err
	}
	j.cancel()
	return nil
}

func (r *Runner) job(id string) (*forkJob, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j, ok := r.jobs[id]
	if !ok {
		return nil, fmt.Errorf("no subagent %q; see agent_list", id)
	}
	return j, nil
}
