package oauth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"tai/internal/mcp/wire"
)

// Browser shows an authorization URL to the person: it prints it and opens
// a browser on it. It returns once the browser is started, not when the
// person is done.
type Browser func(ctx context.Context, authURL string) error

// LoginRequest is one browser login.
type LoginRequest struct {
	HTTPClient *http.Client
	Discovery  Discovery
	// Scopes replaces Discovery.Scopes when set (a step-up asks for more).
	Scopes []string
	Open   Browser
	// Timeout bounds the wait for the redirect; zero means
	// MCP_OAUTH_TIMEOUT.
	Timeout time.Duration
	Now     func() time.Time
}

// Grant is a completed login: the registered client, the tokens and where
// to refresh them.
type Grant struct {
	Client        Client
	Token         Token
	TokenEndpoint string
	Resource      string
	Issuer        string
}

// Login registers tai with the authorization server, opens the browser on
// an authorization request (PKCE S256, state, resource and the scopes),
// waits for the redirect on a loopback Callback and exchanges the code.
func Login(ctx context.Context, req LoginRequest) (Grant, error) {
	d := req.Discovery
	scopes := d.Scopes
	if req.Scopes != nil {
		scopes = req.Scopes
	}
	timeout, now := req.Timeout, req.Now
	if timeout <= 0 {
		timeout = wire.OAuthTimeout
	}
	if now == nil {
		now = time.Now
	}
	state, verifier := newState(), newVerifier()
	cb, err := ListenCallback(state)
	if err != nil {
		return Grant{}, err
	}
	defer cb.Close()
	client, err := Register(ctx, req.HTTPClient, d.Server, cb.RedirectURI(), scopes)
	if err != nil {
		return Grant{}, err
	}
	authURL, err := authorizationURL(d, client.ID, cb.RedirectURI(), state, challengeS256(verifier), scopes)
	if err != nil {
		return Grant{}, err
	}
	if err := req.Open(ctx, authURL); err != nil {
		return Grant{}, err
	}
	code, err := cb.Wait(ctx, timeout)
	if err != nil {
		return Grant{}, err
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {cb.RedirectURI()},
		"code_verifier": {verifier}, "resource": {d.Resource}}
	tok, err := tokenRequest(ctx, req.HTTPClient, d.Server.TokenEndpoint, client, form, now())
	if err != nil {
		return Grant{}, err
	}
	if tok.Scope == "" {
		tok.Scope = strings.Join(scopes, " ") // RFC 6749 §5.1: as requested
	}
	return Grant{Client: client, Token: tok, TokenEndpoint: d.Server.TokenEndpoint, Resource: d.Resource, Issuer: d.Issuer}, nil
}

// authorizationURL builds the authorization request (RFC 6749 §4.1.1 with
// RFC 7636 and RFC 8707), keeping any query the endpoint already has.
func authorizationURL(d Discovery, clientID, redirectURI, state, challenge string, scopes []string) (string, error) {
	u, err := httpURL(d.Server.AuthorizationEndpoint, "the authorization endpoint")
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", clientID)
	q.Set("redirect_uri", redirectURI)
	q.Set("state", state)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("resource", d.Resource)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// UnionScopes is a step-up's scope: everything held before plus what the
// challenge asks for, in that order, without repeats.
func UnionScopes(held string, more string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range append(strings.Fields(held), strings.Fields(more)...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Covers reports whether held (space-separated scopes) already includes
// every scope of want: a step-up to want would change nothing.
func Covers(held, want string) bool {
	have := map[string]bool{}
	for _, s := range strings.Fields(held) {
		have[s] = true
	}
	for _, s := range strings.Fields(want) {
		if !have[s] {
			return false
		}
	}
	return true
}
