package cli

import (
	"context"
	"errors"

	"tai/internal/tools"
)

// forkRunner gives the GitHub resolver's agent pass the default runner of
// the agent a conversation on this profile would run, built by newChat on
// first use only: most links resolve without a model.
type forkRunner struct {
	a    *App
	o    chatOptions
	chat *chat
}

// Subagents builds the conversation's agent if needed and returns its
// runner.
func (r *forkRunner) Subagents(ctx context.Context) (tools.Subagents, error) {
	if r.chat == nil {
		c, err := r.a.newChat(ctx, r.o)
		if err != nil {
			return nil, err
		}
		r.chat = c
	}
	if r.chat.problem != "" {
		return nil, errors.New(r.chat.problem)
	}
	return r.chat.agent.Env.Subagents, nil
}

// Close ends what the agent started.
func (r *forkRunner) Close() {
	if r.chat != nil {
		r.chat.Close()
	}
}
