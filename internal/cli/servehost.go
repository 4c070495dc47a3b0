package cli

import (
	"context"
	"fmt"
	"sync"

	"tai/internal/agent"
	"tai/internal/llm"
	"tai/internal/mcp/serve"
	"tai/internal/profile"
	"tai/internal/tools"
)

// servedHost builds what served sessions run on on the REPL's tool host
// (newToolHost), with approvals as --yolo and no person present.
type servedHost struct {
	a       *App
	profile string // the server's profile
}

var _ serve.Host = (*servedHost)(nil)

// config resolves a profile ("" for the server's) for serving.
func (h *servedHost) config(ctx context.Context, name string) (profile.Config, error) {
	if name == "" {
		name = h.profile
	}
	a := h.a
	if ok, err := a.store.ProfileExists(ctx, name); err != nil {
		return profile.Config{}, err
	} else if !ok {
		return profile.Config{}, fmt.Errorf("%w %q; tai profile list shows the profiles", serve.ErrUnknownProfile, name)
	}
	return profile.Resolve(ctx, a.store, name, a.Getenv,
		profile.Flags{Model: a.flags.model, MaxSteps: a.flags.maxSteps, Approval: profile.ApprovalYolo})
}

// Env implements serve.Host. Subagents build their parent agent on first
// use, so a session that never forks needs no model.
func (h *servedHost) Env(ctx context.Context) (*tools.Env, error) {
	cfg, err := h.config(ctx, "")
	if err != nil {
		return nil, err
	}
	th, err := h.a.newToolHost(cfg, agentSetup{Served: true})
	if err != nil {
		return nil, err
	}
	th.env.Subagents = &lazyRunner{build: func() (*agent.Agent, error) {
		client, err := h.a.llmClient(context.WithoutCancel(ctx), cfg)
		ag := th.agent(cfg)
		ag.Client = client
		return ag, err
	}}
	return th.env, nil
}

// Agent implements serve.Host.
func (h *servedHost) Agent(ctx context.Context, name string) (*agent.Agent, error) {
	cfg, err := h.config(ctx, name)
	if err != nil {
		return nil, err
	}
	client, err := h.a.llmClient(ctx, cfg)
	if err != nil {
		return nil, err
	}
	th, err := h.a.newToolHost(cfg, agentSetup{Served: true, ServedChat: true})
	if err != nil {
		return nil, err
	}
	ag := th.agent(cfg)
	ag.Client = client
	th.env.Subagents = agent.NewRunner(ag)
	return ag, nil
}

// Model implements serve.Host.
func (h *servedHost) Model(ctx context.Context) (llm.Client, error) {
	cfg, err := h.config(ctx, "")
	if err != nil {
		return nil, err
	}
	return h.a.llmClient(ctx, cfg)
}

// lazyRunner is tools.Subagents whose parent agent is built on first use.
type lazyRunner struct {
	build func() (*agent.Agent, error)

	once   sync.Once
	runner *agent.Runner
	err    error
}

var _ tools.Subagents = (*lazyRunner)(nil)

func (l *lazyRunner) get() (*agent.Runner, error) {
	l.once.Do(func() {
		parent, err := l.build()
		if err != nil {
			l.err = fmt.Errorf("subagents need the profile's model: %w", err)
			return
		}
		l.runner = agent.NewRunner(parent)
	})
	return l.runner, l.err
}

func (l *lazyRunner) Fork(ctx context.Context, req tools.ForkRequest) (tools.ForkResult, error) {
	r, err := l.get()
	if err != nil {
		return tools.ForkResult{}, err
	}
	return r.Fork(ctx, req)
}

func (l *lazyRunner) Start(ctx context.Context, req tools.ForkRequest) (string, error) {
	r, err := l.get()
	if err != nil {
		return "", err
	}
	return r.Start(ctx, req)
}

func (l *lazyRunner) Wait(ctx context.Context, id string) (tools.ForkResult, error) {
	r, err := l.get()
	if err != nil {
		return tools.ForkResult{}, err
	}
	return r.Wait(ctx, id)
}

func (l *lazyRunner) List() []tools.ForkStatus {
	if r, err := l.get(); err == nil {
		return r.List()
	}
	return nil
}

func (l *lazyRunner) Cancel(id string) error {
	r, err := l.get()
	if err != nil {
		return err
	}
	return r.Cancel(id)
}
