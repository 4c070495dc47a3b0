package agent

import (
	"context"
	"sync"

	"tai/internal/tools"
)

// LazyRunner is a Runner whose parent agent is built on first use, so a
// host that never forks needs no model: a served session, and tai mcp add,
// whose GitHub resolver forks only when reading the repository found
// nothing.
type LazyRunner struct {
	build func() (*Agent, error)

	once   sync.Once
	runner *Runner
	err    error
}

var _ tools.Subagents = (*LazyRunner)(nil)

// Lazy returns a LazyRunner over the parent build makes; build's error is
// every call's, once and for all.
func Lazy(build func() (*Agent, error)) *LazyRunner { return &LazyRunner{build: build} }

func (l *LazyRunner) get() (*Runner, error) {
	l.once.Do(func() {
		parent, err := l.build()
		if err != nil {
			l.err = err
			return
		}
		l.runner = NewRunner(parent)
	})
	return l.runner, l.err
}

// Runner builds the parent now if it is not yet built and returns the
// runner, or why there is none: the form the GitHub resolver takes.
func (l *LazyRunner) Runner(context.Context) (tools.Subagents, error) {
	r, err := l.get()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Close ends what the parent's tools started (background jobs), when it
// was built.
func (l *LazyRunner) Close() {
	if l.runner != nil && l.runner.Parent.Env != nil {
		l.runner.Parent.Env.State.Close()
	}
}

// Fork implements tools.Subagents.
func (l *LazyRunner) Fork(ctx context.Context, req tools.ForkRequest) (tools.ForkResult, error) {
	r, err := l.get()
	if err != nil {
		return tools.ForkResult{}, err
	}
	return r.Fork(ctx, req)
}

// Start implements tools.Subagents.
func (l *LazyRunner) Start(ctx context.Context, req tools.ForkRequest) (string, error) {
	r, err := l.get()
	if err != nil {
		return "", err
	}
	return r.Start(ctx, req)
}

// Wait implements tools.Subagents.
func (l *LazyRunner) Wait(ctx context.Context, id string) (tools.ForkResult, error) {
	r, err := l.get()
	if err != nil {
		return tools.ForkResult{}, err
	}
	return r.Wait(ctx, id)
}

// List implements tools.Subagents.
func (l *LazyRunner) List() []tools.ForkStatus {
	if r, err := l.get(); err == nil {
		return r.List()
	}
	return nil
}

// Cancel implements tools.Subagents.
func (l *LazyRunner) Cancel(id string) error {
	r, err := l.get()
	if err != nil {
		return err
	}
	return r.Cancel(id)
}
