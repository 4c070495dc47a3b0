package cli

import (
	"context"

	"tai/internal/mcp/bridge"
	"tai/internal/repl"
)

var _ repl.Resources = (*chat)(nil)

// ResourceServers implements repl.Resources: the servers enabled for the
// conversation's profile, as the vault has them (nothing is started).
func (c *chat) ResourceServers() []string {
	names, err := c.a.store.EnabledMCPServers(context.Background(), c.cfg.Profile)
	if err != nil {
		return nil
	}
	return names
}

// CompleteURI implements repl.Resources through the conversation's
// bridge: enabled servers only, started in the background without asking.
func (c *chat) CompleteURI(ctx context.Context, server, partial string) ([]string, error) {
	b, err := bridge.From(c.agent.Env)
	if err != nil {
		return nil, err
	}
	return b.CompleteURI(ctx, server, partial)
}

var _ repl.ResourceWatcher = (*chat)(nil)

// WatchResource implements repl.ResourceWatcher through the
// conversation's bridge (enabled servers only).
func (c *chat) WatchResource(ctx context.Context, server, uri string) (changed, lost <-chan struct{}, stop func(), err error) {
	b, err := bridge.From(c.agent.Env)
	if err != nil {
		return nil, nil, nil, err
	}
	w, err := b.Watch(ctx, server, uri)
	if err != nil {
		return nil, nil, nil, err
	}
	return w.Changed, w.Lost, w.Stop, nil
}
