package cli

import (
	"context"
	"fmt"

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
	th, err := h.a.newToolHost(cfg, agentSetup{Door: tools.DoorServed})
	if err != nil {
		return nil, err
	}
	th.env.Subagents = agent.Lazy(func() (*agent.Agent, error) {
		client, err := h.a.llmClient(context.WithoutCancel(ctx), cfg)
		if err != nil {
			return nil, fmt.Errorf("subagents need the profile's model: %w", err)
		}
		ag := th.agent(cfg)
		ag.Client = client
		return ag, nil
	})
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
	th, err := h.a.newToolHost(cfg, agentSetup{Door: tools.DoorServedChat})
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
