package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"tai/internal/vault"
)

// Meta keys of the access token's secret.
const (
	metaClientID   = "client_id"
	metaAuthMethod = "token_endpoint_auth_method"
	metaEndpoint   = "token_endpoint"
	metaExpires    = "expires" // Unix seconds; absent when unknown
	metaScope      = "scope"
	metaResource   = "resource"
	metaIssuer     = "issuer"
)

// AccessMeta lists the keys of the access token secret's meta.
var AccessMeta = []string{metaClientID, metaAuthMethod, metaEndpoint, metaExpires, metaScope, metaResource, metaIssuer}

// refreshTimeout bounds one refresh_token grant. The refresh runs while
// the vault's write lock is held, and other writers wait for that lock at
// most the vault's busy timeout (30s), so this stays well below it.
const refreshTimeout = 20 * time.Second

// expirySkew refreshes a token this long before it expires, so that it
// does not expire on the way to the server.
const expirySkew = 30 * time.Second

// SecretNames names the vault secrets of a server's login: the access
// token, the refresh token and the client secret a server may issue, each
// clamped to SECRET_RE.
func SecretNames(server string) []string {
	n := namesOf(server)
	return []string{n.access, n.refresh, n.client}
}

type names struct{ access, refresh, client string }

func namesOf(server string) names {
	return names{
		access:  vault.ClampSecretName("mcp-oauth-" + server + "-access"),
		refresh: vault.ClampSecretName("mcp-oauth-" + server + "-refresh"),
		client:  vault.ClampSecretName("mcp-oauth-" + server + "-client"),
	}
}

func (n names) list() []string { return []string{n.access, n.refresh, n.client} }

// Tokens is one server's login in one profile's vault: sealed at rest when
// the vault is, and redacted from output like every secret.
type Tokens struct {
	Store   *vault.Store
	Profile string
	Server  string
	// HTTPClient reaches the token endpoint; it must not itself add tokens.
	HTTPClient *http.Client
	Now        func() time.Time
}

// Stored is a login as kept in the vault.
type Stored struct {
	Access        string
	Expiry        time.Time // zero when unknown
	Scope         string
	ClientID      string
	AuthMethod    string
	TokenEndpoint string
	Resource      string
	Issuer        string
}

func (t *Tokens) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Load reads the stored login; ok is false when there is none.
func (t *Tokens) Load(ctx context.Context) (s Stored, ok bool, err error) {
	v, err := t.Store.SecretWithMeta(ctx, t.Profile, namesOf(t.Server).access)
	if vault.IsNotFound(err) {
		return Stored{}, false, nil
	}
	if err != nil {
		return Stored{}, false, err
	}
	return storedOf(v), true, nil
}

func storedOf(v vault.SecretValue) Stored {
	s := Stored{Access: v.Value, Scope: v.Meta[metaScope], ClientID: v.Meta[metaClientID], AuthMethod: v.Meta[metaAuthMethod],
		TokenEndpoint: v.Meta[metaEndpoint], Resource: v.Meta[metaResource], Issuer: v.Meta[metaIssuer]}
	if n, err := strconv.ParseInt(v.Meta[metaExpires], 10, 64); err == nil && n > 0 {
		s.Expiry = time.Unix(n, 0)
	}
	return s
}

func (s Stored) meta() map[string]string {
	m := map[string]string{}
	for k, v := range map[string]string{metaClientID: s.ClientID, metaAuthMethod: s.AuthMethod, metaEndpoint: s.TokenEndpoint,
		metaScope: s.Scope, metaResource: s.Resource, metaIssuer: s.Issuer} {
		if v != "" {
			m[k] = v
		}
	}
	if !s.Expiry.IsZero() {
		m[metaExpires] = strconv.FormatInt(s.Expiry.Unix(), 10)
	}
	return m
}

// Save stores a completed login, replacing any earlier one.
func (t *Tokens) Save(ctx context.Context, g Grant) error {
	n := namesOf(t.Server)
	s := Stored{Access: g.Token.Access, Expiry: g.Token.Expiry, Scope: g.Token.Scope, ClientID: g.Client.ID,
		AuthMethod: g.Client.AuthMethod, TokenEndpoint: g.TokenEndpoint, Resource: g.Resource, Issuer: g.Issuer}
	writes := map[string]*vault.SecretValue{n.access: {Value: s.Access, Meta: s.meta()}, n.refresh: nil, n.client: nil}
	if g.Token.Refresh != "" {
		writes[n.refresh] = &vault.SecretValue{Value: g.Token.Refresh, Meta: map[string]string{}}
	}
	if g.Client.Secret != "" {
		writes[n.client] = &vault.SecretValue{Value: g.Client.Secret, Meta: map[string]string{metaClientID: g.Client.ID}}
	}
	return t.Store.UpdateSecrets(ctx, t.Profile, n.list(), func(map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		return writes, nil
	})
}

// Fresh returns the access token to send, refreshing it first when it has
// expired; "" means no login is stored.
func (t *Tokens) Fresh(ctx context.Context) (string, error) {
	s, ok, err := t.Load(ctx)
	if err != nil || !ok {
		return "", err
	}
	if s.Expiry.IsZero() || t.now().Add(expirySkew).Before(s.Expiry) {
		return s.Access, nil
	}
	return t.Refresh(ctx, s.Access, "")
}

// RefreshError is a login that could not be refreshed: the person has to
// log in again.
type RefreshError struct {
	Server string
	Err    error
}

func (e *RefreshError) Error() string {
	return fmt.Sprintf("MCP server %s: the login could not be refreshed (%v); log in again with `tai mcp login %s` (the mcp_login tool)",
		e.Server, e.Err, e.Server)
}

func (e *RefreshError) Unwrap() error { return e.Err }

// errNoRefreshToken is a login that expired without a refresh token.
var errNoRefreshToken = errors.New("no refresh token was issued")

// refreshing holds one semaphore per vault, profile and server, so that
// goroutines of one process queue here rather than on the vault's lock.
var refreshing sync.Map

// Refresh replaces the access token stale with a fresh one and returns it.
// It runs the refresh_token grant at most once however many goroutines and
// processes sharing the vault ask at the same time: under the vault's
// write lock it reads the stored token again, and when that is no longer
// stale another caller has refreshed it already and Refresh returns the
// new one without a request. A rotated refresh token is stored in the same
// transaction. endpoint, when set, replaces the stored token endpoint (it
// was discovered again after a 401).
func (t *Tokens) Refresh(ctx context.Context, stale, endpoint string) (string, error) {
	sem, _ := refreshing.LoadOrStore(t.Store.Path()+"\x00"+t.Profile+"\x00"+t.Server, make(chan struct{}, 1))
	select {
	case sem.(chan struct{}) <- struct{}{}:
		defer func() { <-sem.(chan struct{}) }()
	case <-ctx.Done():
		return "", ctx.Err()
	}
	n := namesOf(t.Server)
	var fresh string
	err := t.Store.UpdateSecrets(ctx, t.Profile, n.list(), func(cur map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		acc, ok := cur[n.access]
		if !ok {
			return nil, errors.New("no login is stored")
		}
		if acc.Value != stale {
			fresh = acc.Value
			return nil, nil
		}
		ref, ok := cur[n.refresh]
		if !ok {
			return nil, errNoRefreshToken
		}
		s := storedOf(acc)
		if endpoint != "" {
			s.TokenEndpoint = endpoint
		}
		tok, err := t.grant(ctx, s, ref.Value, cur[n.client].Value)
		if err != nil {
			return nil, err
		}
		fresh = tok.Access
		s.Access, s.Expiry = tok.Access, tok.Expiry
		if tok.Scope != "" {
			s.Scope = tok.Scope
		}
		writes := map[string]*vault.SecretValue{n.access: {Value: s.Access, Meta: s.meta()}}
		if tok.Refresh != "" && tok.Refresh != ref.Value {
			writes[n.refresh] = &vault.SecretValue{Value: tok.Refresh, Meta: map[string]string{}}
		}
		return writes, nil
	})
	if err != nil {
		return "", &RefreshError{Server: t.Server, Err: err}
	}
	return fresh, nil
}

// grant runs the refresh_token grant (RFC 6749 §6, with RFC 8707's
// resource).
func (t *Tokens) grant(ctx context.Context, s Stored, refresh, secret string) (Token, error) {
	ctx, cancel := context.WithTimeout(ctx, refreshTimeout)
	defer cancel()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}
	if s.Resource != "" {
		form.Set("resource", s.Resource)
	}
	c := Client{ID: s.ClientID, Secret: secret, AuthMethod: s.AuthMethod}
	return tokenRequest(ctx, t.HTTPClient, s.TokenEndpoint, c, form, t.now())
}
