package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"tai/internal/redirect"
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

// HasRefresh reports whether a refresh token is stored beside the login.
func (t *Tokens) HasRefresh(ctx context.Context) (bool, error) {
	_, err := t.Store.Secret(ctx, t.Profile, namesOf(t.Server).refresh)
	if vault.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
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
func (t *Tokens) Fresh(ctx context.Context) (string, error) { return t.freshFor(ctx, nil) }

// freshFor is Fresh for a request to u (nil: anywhere). A login is sent
// only to the origin of the resource it was issued for: a request
// elsewhere, which only a redirect or a changed URL can make, fails
// without it. A login stored without a resource has only the redirect
// policy (redirect.Check) between it and other origins.
func (t *Tokens) freshFor(ctx context.Context, u *url.URL) (string, error) {
	s, ok, err := t.Load(ctx)
	if err != nil || !ok {
		return "", err
	}
	if r, perr := url.Parse(s.Resource); u != nil && s.Resource != "" && (perr != nil || !redirect.SameOrigin(r, u)) {
		return "", fmt.Errorf("MCP server %s: the login is for %s, and tai sends its token nowhere else (not to %s); if the server moved, register its new URL and log in with `tai mcp login %s`",
			t.Server, redactURL(s.Resource), redirect.Show(u), t.Server)
	}
	if s.Expiry.IsZero() || t.now().Add(expirySkew).Before(s.Expiry) {
		return s.Access, nil
	}
	return t.Refresh(ctx, s.Access, "")
}
