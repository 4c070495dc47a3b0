package bridge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"tai/internal/mcp/oauth"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// maxStepUps bounds the re-authorizations one operation may make when the
// server keeps answering 403 insufficient_scope.
const maxStepUps = 2

// httpClient is the client for HTTP servers and authorization servers,
// without tokens: HTTPClient, or one of the bridge's own that Close
// releases.
func (b *Bridge) httpClient() *http.Client {
	if b.HTTPClient != nil {
		return b.HTTPClient
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.plain == nil {
		b.plain = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	return b.plain
}

// tokens is the profile's OAuth login to server.
func (b *Bridge) tokens(server string) *oauth.Tokens {
	return &oauth.Tokens{Store: b.Store, Profile: b.Profile, Server: server, HTTPClient: b.httpClient()}
}

// ErrNoBrowser refuses a login where no browser can be opened for the
// person: a served session or an unattended host.
var ErrNoBrowser = errors.New("logging in needs a person and a browser on this machine: run `tai mcp login SERVER` in a terminal")

// authorize runs a browser login to server and stores the tokens:
// discovery from the challenge, the ask (server URL, authorization server,
// scopes), registration, the browser and the code exchange. scopes, when
// set, replaces the discovered ones (a step-up); why says what prompted it.
func (b *Bridge) authorize(ctx context.Context, server, serverURL string, ch oauth.Challenge, scopes []string, why string) error {
	if b.Browser == nil || b.Confirm == nil {
		return ErrNoBrowser
	}
	d, err := oauth.Discover(ctx, b.httpClient(), serverURL, ch)
	if err != nil {
		return fmt.Errorf("MCP server %s: finding how to log in: %w", server, err)
	}
	if scopes != nil {
		d.Scopes = scopes
	}
	ok, err := b.Confirm(ctx, loginConsent(server, serverURL, b.Profile, d, why))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("MCP server %s: login not approved", server)
	}
	g, err := oauth.Login(ctx, oauth.LoginRequest{HTTPClient: b.httpClient(), Discovery: d, Open: b.Browser})
	if err != nil {
		return fmt.Errorf("MCP server %s: login failed: %w", server, err)
	}
	return b.tokens(server).Save(ctx, g)
}

// loginConsent is the ask before the browser opens.
func loginConsent(server, serverURL, profile string, d oauth.Discovery, why string) tools.Consent {
	scopes := "(none requested)"
	if len(d.Scopes) > 0 {
		scopes = strings.Join(d.Scopes, " ")
	}
	detail := fmt.Sprintf("server: %s\nURL: %s\nauthorization server: %s\nscopes: %s\n", server,
		wire.Printable(serverURL, 200), wire.Printable(d.Issuer, 200), wire.Printable(scopes, 300))
	if why != "" {
		detail += why + "\n"
	}
	detail += fmt.Sprintf("tai registers as the public client %s, opens your browser, and keeps the tokens sealed in the vault for profile %s.",
		oauth.ClientName, profile)
	return tools.Consent{Title: "MCP login: " + wire.Printable(server, 64), Detail: detail}
}

// stepUp re-authorizes with a wider scope after a 403 insufficient_scope
// (the 2025-11-25 step-up) and reports whether the operation should be
// tried again. It declines where nobody can log in (served sessions), past
// maxStepUps, and when the login already holds every scope the challenge
// names (asking again would loop); then the error is failure with the
// reason added. Any other failure is returned as it is.
func (b *Bridge) stepUp(ctx context.Context, server string, failure error, attempt int) (bool, error) {
	var he *wire.HTTPError
	if !errors.As(failure, &he) || he.Status != http.StatusForbidden {
		return false, failure
	}
	ch, ok := oauth.ParseChallenge(he.WWWAuthenticate)
	if !ok || !ch.InsufficientScope() {
		return false, failure
	}
	scope := wire.Printable(ch.Scope, 200)
	held, ok, err := b.tokens(server).Load(ctx)
	switch {
	case err != nil:
		return false, err
	case !ok:
		return false, fmt.Errorf("%w; MCP server %s wants scope %q: log in with `tai mcp login %s`", failure, server, scope, server)
	case b.Browser == nil || b.Confirm == nil:
		return false, fmt.Errorf("%w; the login to MCP server %s lacks scope %q, and tai widens a login only where it can open a browser and ask you (a terminal, never a served session)",
			failure, server, scope)
	case oauth.Covers(held.Scope, ch.Scope):
		return false, fmt.Errorf("%w; the login to MCP server %s already holds scope %q, so logging in again would not help", failure, server, scope)
	case attempt >= maxStepUps:
		return false, fmt.Errorf("%w; MCP server %s still wants scope %q after %d logins with a wider scope", failure, server, scope, maxStepUps)
	}
	u, err := b.serverURL(ctx, server)
	if err != nil {
		return false, err
	}
	scopes := oauth.UnionScopes(held.Scope, ch.Scope)
	why := fmt.Sprintf("the server needs more permission (scope %q) for this request", scope)
	if err := b.authorize(ctx, server, u, ch, scopes, why); err != nil {
		return false, err
	}
	return true, nil
}

// serverURL is a stored HTTP server's URL as it expands now.
func (b *Bridge) serverURL(ctx context.Context, server string) (string, error) {
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return "", err
	}
	x, err := b.expand(ctx, EntryOf(srv))
	return x.Entry.URL, err
}

// loginHint adds what to do to a 401 from a server: log in. A refresh
// failure already says so; a 403 gets its reason from stepUp.
func loginHint(server string, err error) error {
	var re *oauth.RefreshError
	if !isUnauthorized(err) || errors.As(err, &re) {
		return err
	}
	return fmt.Errorf("%w; MCP server %s needs a login: run `tai mcp login %s` in a terminal (or the mcp_login tool)", err, server, server)
}

// isUnauthorized reports a 401 from the server.
func isUnauthorized(err error) bool {
	var he *wire.HTTPError
	return errors.As(err, &he) && he.Status == http.StatusUnauthorized
}
