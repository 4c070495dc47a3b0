package oauth

import (
	"context"
	"errors"
	"fmt"
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
	// Client, when its ID is set, is a client registered with the
	// authorization server beforehand (a developer console's client id,
	// with its secret when it is confidential): the first of the
	// registration methods. Its AuthMethod, when empty, is the one the
	// server's metadata supports (client_secret_basic first).
	Client Client
	// CallbackPort is the loopback port of the redirect URI (0: any free
	// one); a pre-registered client's redirect URI usually names one.
	CallbackPort int
	// ClientMetadataURL is the HTTPS URL of tai's client ID metadata
	// document (oauth_client_metadata_url): the client_id where the
	// authorization server accepts such documents. Empty skips the method.
	ClientMetadataURL string
	// Paste, when set, reads the redirect URL the person copies from the
	// browser's address bar (a headless login, where the browser cannot
	// reach this machine's loopback): whichever of it and the loopback
	// redirect comes first is used, with the same state and iss checks.
	Paste func(ctx context.Context) (string, error)
	// Timeout bounds the wait for the redirect; zero means
	// MCP_OAUTH_TIMEOUT.
	Timeout time.Duration
	Now     func() time.Time
}

// Registration methods, in the order of the 2026-07-28 revision: a client
// registered beforehand, a client ID metadata document, dynamic client
// registration. With none possible, the person is asked for a client.
const (
	ByPreRegistration     = "pre-registered client"
	ByMetadataDocument    = "client ID metadata document"
	ByDynamicRegistration = "dynamic client registration"
)

// Grant is a completed login: the registered client, the tokens and where
// to refresh them.
type Grant struct {
	Client        Client
	Token         Token
	TokenEndpoint string
	Resource      string
	Issuer        string
	// Registration says how tai was known to the authorization server:
	// one of the By* methods.
	Registration string
}

// Login finds tai's client (a pre-registered one, a client ID metadata
// document, or a dynamic registration, in that order), opens the browser
// on an authorization request (PKCE S256, state, resource and the
// scopes), waits for the redirect on a loopback Callback (or pasted, with
// Paste), checks its state and issuer, and exchanges the code.
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
	want := Expect{State: newState(), Issuer: d.Server.Issuer, IssRequired: d.Server.AuthorizationResponseIssParameterSupported}
	verifier := newVerifier()
	cb, err := ListenCallback(want, req.CallbackPort)
	if err != nil {
		return Grant{}, err
	}
	defer cb.Close()
	client, how, err := chooseClient(ctx, req, d, cb.RedirectURI(), scopes)
	if err != nil {
		return Grant{}, err
	}
	authURL, err := authorizationURL(d, client.ID, cb.RedirectURI(), want.State, challengeS256(verifier), scopes)
	if err != nil {
		return Grant{}, err
	}
	if err := req.Open(ctx, authURL); err != nil {
		return Grant{}, err
	}
	code, err := awaitCode(ctx, cb, want, req.Paste, timeout)
	if err != nil {
		return Grant{}, err
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {cb.RedirectURI()},
		"code_verifier": {verifier}, "resource": {d.Resource}}
	tok, err := tokenRequest(ctx, req.HTTPClient, d.Server.TokenEndpoint, client, form, now())
	if other := otherSecretMethod(client, req.Client, d.Server, err); other != "" {
		// A console's client is registered for one way of sending its
		// secret, which the metadata may not tell: the other way, once.
		client.AuthMethod = other
		tok, err = tokenRequest(ctx, req.HTTPClient, d.Server.TokenEndpoint, client, form, now())
	}
	if err != nil {
		return Grant{}, err
	}
	if tok.Scope == "" {
		tok.Scope = strings.Join(scopes, " ") // RFC 6749 §5.1: as requested
	}
	return Grant{Client: client, Token: tok, TokenEndpoint: d.Server.TokenEndpoint, Resource: d.Resource, Issuer: d.Issuer,
		Registration: how}, nil
}

// otherSecretMethod is the other way to send a pre-registered client's
// secret when the token endpoint refused the one tai picked (invalid_client)
// and the person named none; "" otherwise.
func otherSecretMethod(used, given Client, md ServerMetadata, err error) string {
	var oe *Error
	if err == nil || given.ID == "" || given.AuthMethod != "" || used.Secret == "" || !errors.As(err, &oe) || oe.Code != "invalid_client" {
		return ""
	}
	other := AuthBasic
	if used.AuthMethod == AuthBasic {
		other = AuthPost
	}
	if len(md.TokenEndpointAuthMethodsSupported) > 0 && !contains(md.TokenEndpointAuthMethodsSupported, other) {
		return ""
	}
	return other
}

// Method is the registration method a login with req uses: a client
// registered beforehand, a client ID metadata document where the server
// takes one and tai has its URL, dynamic registration; a *NoClientError
// when none is possible, so the person can be asked for a client before
// anything else happens.
func Method(req LoginRequest) (string, error) {
	md := req.Discovery.Server
	switch {
	case req.Client.ID != "":
		return ByPreRegistration, nil
	case md.ClientIDMetadataDocumentSupported && req.ClientMetadataURL != "":
		return ByMetadataDocument, CheckClientMetadataURL(req.ClientMetadataURL)
	case md.RegistrationEndpoint != "":
		return ByDynamicRegistration, nil
	}
	return "", &NoClientError{Issuer: req.Discovery.Issuer, MetadataDocuments: md.ClientIDMetadataDocumentSupported}
}

// chooseClient is the client tai logs in as, and the method that gave it.
func chooseClient(ctx context.Context, req LoginRequest, d Discovery, redirectURI string, scopes []string) (Client, string, error) {
	how, err := Method(req)
	if err != nil {
		return Client{}, "", err
	}
	switch how {
	case ByPreRegistration:
		c := req.Client
		if c.AuthMethod == "" {
			c.AuthMethod = defaultAuthMethod(c.Secret, d.Server.TokenEndpointAuthMethodsSupported)
		}
		return c, how, nil
	case ByMetadataDocument:
		return Client{ID: req.ClientMetadataURL, AuthMethod: AuthNone}, how, nil
	}
	c, err := Register(ctx, req.HTTPClient, d.Server, redirectURI, scopes)
	return c, how, err
}

// NoClientError is an authorization server tai cannot be known to by
// itself: no pre-registered client was given, it takes no client ID
// metadata document (or tai has no oauth_client_metadata_url), and it
// offers no dynamic registration. The person is asked for a client.
type NoClientError struct {
	Issuer string
	// MetadataDocuments is set when the server takes client ID metadata
	// documents, so setting oauth_client_metadata_url would do.
	MetadataDocuments bool
}

func (e *NoClientError) Error() string {
	msg := fmt.Sprintf("authorization server %s offers no dynamic client registration", redactURL(e.Issuer))
	if e.MetadataDocuments {
		msg += "; it takes client ID metadata documents, but oauth_client_metadata_url is not set (tai doctor says how)"
	} else {
		msg += " and takes no client ID metadata document"
	}
	return msg + ": register a client in its developer console and give it: tai mcp login SERVER --client-id ID [--client-secret-stdin] [--callback-port N]"
}

// awaitCode waits for the authorization code: the loopback redirect, or
// the redirect URL pasted (paste), whichever comes first.
func awaitCode(ctx context.Context, cb *Callback, want Expect, paste func(context.Context) (string, error), timeout time.Duration) (string, error) {
	if paste == nil {
		return cb.Wait(ctx, timeout)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		code string
		err  error
	}
	got := make(chan result, 2)
	go func() {
		code, err := cb.Wait(ctx, timeout)
		got <- result{code, err}
	}()
	go func() {
		line, err := paste(ctx)
		if err != nil {
			got <- result{"", fmt.Errorf("reading the pasted redirect URL: %w", err)}
			return
		}
		code, err := want.Code(pastedQuery(line))
		got <- result{code, err}
	}()
	r := <-got
	return r.code, r.err
}

// pastedQuery reads the query of a pasted redirect: the whole URL from
// the address bar, or only what follows its "?".
func pastedQuery(line string) url.Values {
	line = strings.TrimSpace(line)
	if _, q, ok := strings.Cut(line, "?"); ok {
		line = q
	}
	line, _, _ = strings.Cut(line, "#")
	q, _ := url.ParseQuery(line)
	return q
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
