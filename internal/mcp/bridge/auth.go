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

// tokensAt is the profile's OAuth login to server at serverURL, which
// names it (every entry at one URL shares one login).
func (b *Bridge) tokensAt(server, serverURL string) *oauth.Tokens {
	return &oauth.Tokens{Store: b.Store, Profile: b.Profile, Server: server, URL: serverURL, HTTPClient: b.httpClient()}
}

// tokens is the profile's OAuth login to a stored server, at its URL as it
// expands now (under its name when that fails).
func (b *Bridge) tokens(ctx context.Context, server string) *oauth.Tokens {
	u, _ := b.serverURL(ctx, server)
	return b.tokensAt(server, u)
}

// ErrNoBrowser refuses a login where no browser can be opened for the
// person: a served session or an unattended host.
var ErrNoBrowser = errors.New("logging in needs a person and a browser on this machine: run `tai mcp login SERVER` in a terminal")

// authorize runs a browser login to server and stores the tokens:
// discovery from the challenge, the client (registered beforehand, a
// metadata document, or a dynamic registration), the ask (server URL,
// authorization server, scopes, client), the browser and the code
// exchange. scopes, when set, replaces the discovered ones (a step-up);
// why says what prompted it. It returns how tai was known to the
// authorization server (one of oauth's By* methods).
func (b *Bridge) authorize(ctx context.Context, server, serverURL string, ch oauth.Challenge, scopes []string, why string) (string, error) {
	if b.Browser == nil || b.Confirm == nil {
		return "", ErrNoBrowser
	}
	d, err := oauth.Discover(ctx, b.httpClient(), serverURL, ch)
	if err != nil {
		return "", fmt.Errorf("MCP server %s: finding how to log in: %w", server, err)
	}
	pc, pre, err := b.clientFor(ctx, server, d.Issuer)
	if err != nil {
		return "", err
	}
	switch {
	case scopes != nil:
		d.Scopes = scopes
	case pre && len(pc.scopes) > 0:
		d.Scopes = pc.scopes
	}
	req := oauth.LoginRequest{HTTPClient: b.httpClient(), Discovery: d, Open: b.Browser, Paste: b.Paste, ClientMetadataURL: b.ClientMetadataURL}
	if pre {
		req.Client, req.CallbackPort = pc.client, pc.port
	}
	how, err := oauth.Method(req)
	if err != nil {
		return "", fmt.Errorf("MCP server %s: %w", server, err)
	}
	ok, err := b.Confirm(ctx, loginConsent(server, serverURL, b.Profile, d, why, how, req))
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("MCP server %s: login not approved", server)
	}
	g, err := oauth.Login(ctx, req)
	if err != nil {
		return "", fmt.Errorf("MCP server %s: login failed: %w", server, err)
	}
	if err := b.tokensAt(server, serverURL).Save(ctx, g); err != nil {
		return "", err
	}
	if pre {
		return how, b.bindClient(ctx, server, d.Issuer)
	}
	return how, nil
}

// loginConsent is the ask before the browser opens.
func loginConsent(server, serverURL, profile string, d oauth.Discovery, why, how string, req oauth.LoginRequest) tools.Consent {
	scopes := "(none requested)"
	if len(d.Scopes) > 0 {
		scopes = strings.Join(d.Scopes, " ")
	}
	detail := fmt.Sprintf("server: %s\nURL: %s\nauthorization server: %s\nscopes: %s\n", server,
		wire.Printable(serverURL, 200), wire.Printable(d.Issuer, 200), wire.Printable(scopes, 300))
	if why != "" {
		detail += why + "\n"
	}
	switch how {
	case oauth.ByPreRegistration:
		secret := "none (a public client)"
		if req.Client.Secret != "" {
			secret = "******** (sealed in the vault, sent only to the token endpoint)"
		}
		detail += fmt.Sprintf("client: %s, registered beforehand; its secret: %s\n", wire.Printable(req.Client.ID, 200), secret)
		if req.CallbackPort > 0 {
			detail += fmt.Sprintf("the browser comes back to 127.0.0.1:%d\n", req.CallbackPort)
		}
		detail += "tai opens your browser"
	case oauth.ByMetadataDocument:
		detail += fmt.Sprintf("client: tai's client metadata document %s (no registration)\ntai opens your browser", wire.Printable(req.ClientMetadataURL, 200))
	default:
		detail += fmt.Sprintf("client: tai registers as the public client %s (dynamic client registration)\ntai opens your browser", oauth.ClientName)
	}
	if req.Paste != nil {
		detail += " (or you open the printed URL elsewhere and paste back where it lands)"
	}
	detail += fmt.Sprintf(", and keeps the tokens sealed in the vault for profile %s.", profile)
	return tools.Consent{Title: "MCP login: " + wire.Printable(server, 64), Detail: detail}
}

// stepUp re-authorizes with a wider scope after a 403 insufficient_scope
// (the 2025-11-25 step-up) and reports whether the operation should be
// tried again. It declines where nobody can log in (served sessions), past
// maxStepUps, and when the login already holds every scope the challenge
// names (asking again would loop); then the error is failure with the
// reason added. Any other failure is returned as it is.
func (b *Bridge) stepUp(ctx context.Context, server string, failure error, attempt int) (bool, error) {
	var moved *oauth.AuthServerChangedError
	if errors.As(failure, &moved) {
		return b.migrate(ctx, server, failure, moved, attempt)
	}
	var he *wire.HTTPError
	if !errors.As(failure, &he) || he.Status != http.StatusForbidden {
		return false, failure
	}
	ch, ok := oauth.ParseChallenge(he.WWWAuthenticate)
	if !ok || !ch.InsufficientScope() {
		return false, failure
	}
	scope := wire.Printable(ch.Scope, 200)
	held, ok, err := b.tokens(ctx, server).Load(ctx)
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
	if _, err := b.authorize(ctx, server, u, ch, scopes, why); err != nil {
		return false, err
	}
	return true, nil
}

// migrate logs in again when the server names another authorization
// server than its login's (SEP-2352): the old login, its client and its
// tokens are forgotten first, so nothing of them reaches the new server,
// and the login registers there anew. It declines where nobody can log
// in, and past maxStepUps (a server that moves on every request).
func (b *Bridge) migrate(ctx context.Context, server string, failure error, moved *oauth.AuthServerChangedError, attempt int) (bool, error) {
	switch {
	case b.Browser == nil || b.Confirm == nil:
		return false, failure
	case attempt >= maxStepUps:
		return false, fmt.Errorf("%w; it changed authorization server %d times in a row, so tai stops logging in again", failure, maxStepUps)
	}
	if err := b.tokens(ctx, server).Forget(ctx); err != nil {
		return false, err
	}
	u, err := b.serverURL(ctx, server)
	if err != nil {
		return false, err
	}
	why := fmt.Sprintf("the server moved to this authorization server from %s (SEP-2352): tai forgot that login, its client and its tokens, and logs in here anew",
		wire.Printable(moved.From, 200))
	if _, err := b.authorize(ctx, server, u, oauth.Challenge{}, nil, why); err != nil {
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
