package bridge

import (
	"context"
	"fmt"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
)

// Launch is what server would run now, for tai doctor: its entry with
// ${VAR} references expanded (x.Err names any left unresolved), and
// whether a person approved exactly that launch. Nothing is started.
func (b *Bridge) Launch(ctx context.Context, server string) (x config.Expanded, approved bool, err error) {
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return x, false, err
	}
	x, err = b.expand(ctx, EntryOf(srv))
	if x.Err() != nil {
		return x, false, nil
	}
	if err != nil {
		return x, false, err
	}
	return x, LaunchHash(x.Entry) == srv.ConsentedHash, nil
}

// Handshake starts server, times its handshake and closes it again,
// touching no pin or cache. A launch no person approved is not started.
func (b *Bridge) Handshake(ctx context.Context, server string) (time.Duration, error) {
	x, approved, err := b.Launch(ctx, server)
	switch {
	case err != nil:
		return 0, err
	case x.Err() != nil:
		return 0, x.Err()
	case !approved:
		return 0, fmt.Errorf("what it runs changed since you approved it; its next use asks again")
	}
	start := time.Now()
	connect, connectCap := b.startLimit(server)
	c, err := client.Connect(ctx, client.Options{Transport: b.transport(x), ConnectTimeout: connect, ConnectCap: connectCap, CallTimeout: b.callLimit(server)})
	if err != nil {
		return 0, loginHint(server, err)
	}
	took := time.Since(start)
	c.Close()
	return took, nil
}

// StoredLogin is server's OAuth login as kept for this profile; ok is
// false when there is none.
func (b *Bridge) StoredLogin(ctx context.Context, server string) (s oauth.Stored, refreshable, ok bool, err error) {
	t := b.tokens(ctx, server)
	if s, ok, err = t.Load(ctx); !ok || err != nil {
		return s, false, ok, err
	}
	refreshable, err = t.HasRefresh(ctx)
	return s, refreshable, ok, err
}
