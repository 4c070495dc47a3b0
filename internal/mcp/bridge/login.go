package bridge

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// Login logs the profile in to a registered HTTP server that answers 401
// (mcp_login, `tai mcp login`): it probes the server anonymously with
// initialize and tools/list and refuses one that needs no login, discovers
// its authorization server, asks (server URL, authorization server,
// scopes), runs the browser login, verifies the tokens with a live
// tools/list (stepping up a 403 insufficient_scope), caches the tools and
// enables the server for the profile. A server logging in for the first
// time has its listed tools pinned, as at registration; one that had
// pinned tools before goes through the usual drift check.
func (b *Bridge) Login(ctx context.Context, server string) (Added, error) {
	if b.Browser == nil || b.Confirm == nil {
		return Added{}, ErrNoBrowser
	}
	srv, x, err := b.loginTarget(ctx, server)
	if err != nil {
		return Added{}, err
	}
	_, _, err = b.probeWith(ctx, client.HTTP{URL: x.Entry.URL, Headers: x.Entry.Headers, HTTPClient: b.httpClient()})
	var he *wire.HTTPError
	switch {
	case err == nil:
		return Added{}, fmt.Errorf("MCP server %s needs no login: it answered initialize and tools/list without one", server)
	case !errors.As(err, &he) || he.Status != http.StatusUnauthorized:
		return Added{}, fmt.Errorf("MCP server %s: reaching it without a login failed, so there is nothing to log in to: %w", server, err)
	}
	ch, _ := oauth.ParseChallenge(he.WWWAuthenticate)
	how, err := b.authorize(ctx, server, x.Entry.URL, ch, nil, "")
	if err != nil {
		return Added{}, err
	}
	listed, err := b.verifyLogin(ctx, server, x)
	if err != nil {
		return Added{}, err
	}
	a := Added{Name: server, Tools: listed, Enabled: true, LoggedIn: true, Registration: how}
	if a.Drift, err = b.cacheLogin(ctx, srv, listed); err != nil {
		return Added{}, err
	}
	b.audit(ctx, vault.KindMCPLogin, server)
	return a, nil
}

// loginTarget reads the server and expands its entry, asking again when
// its URL changed since it was approved.
func (b *Bridge) loginTarget(ctx context.Context, server string) (vault.MCPServer, config.Expanded, error) {
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return srv, config.Expanded{}, err
	}
	if srv.Transport != config.HTTP {
		return srv, config.Expanded{}, fmt.Errorf("MCP server %s runs as a command: OAuth login is for HTTP servers (give a command its credentials through its env)", server)
	}
	if hasAuthHeader(srv.Headers) {
		return srv, config.Expanded{}, fmt.Errorf("MCP server %s sends its own Authorization header; change that header rather than logging in", server)
	}
	x, err := b.expand(ctx, EntryOf(srv))
	if err != nil {
		return srv, x, err
	}
	if h := LaunchHash(x.Entry); h != srv.ConsentedHash {
		if err := b.reconsent(ctx, srv, x, h); err != nil {
			return srv, x, err
		}
		srv.ConsentedHash = h
	}
	return srv, x, nil
}

// verifyLogin lists the tools with the new tokens.
func (b *Bridge) verifyLogin(ctx context.Context, server string, x config.Expanded) ([]wire.Tool, error) {
	for attempt := 0; ; attempt++ {
		listed, _, err := b.probe(ctx, x)
		if err == nil {
			return listed, nil
		}
		if again, err := b.stepUp(ctx, server, err, attempt); !again {
			return nil, fmt.Errorf("MCP server %s: logged in, but listing its tools with the new login failed: %w", server, loginHint(server, err))
		}
	}
}

// cacheLogin stores the verified tool list and enables the server.
func (b *Bridge) cacheLogin(ctx context.Context, srv vault.MCPServer, listed []wire.Tool) (Drift, error) {
	pins, err := b.Store.MCPPins(ctx, srv.Name)
	if err != nil {
		return Drift{}, err
	}
	if len(pins) == 0 {
		reg := Registration(srv, listed)
		reg.Enable = []string{b.Profile}
		return Drift{}, b.Store.RegisterMCPServer(ctx, reg)
	}
	d, err := b.refresh(ctx, srv.Name, listed)
	if err != nil {
		return d, err
	}
	return d, b.Store.SetMCPEnabled(ctx, srv.Name, b.Profile, true)
}
