package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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

// A login is kept under names derived from the server's URL (its
// canonical form, the resource tai asks tokens for), not from the
// server's name: every entry at one URL shares one login, and an entry at
// another URL, whatever its name, never finds tokens issued for this one.
// The issuer the login came from is recorded with it and checked when the
// server answers 401 (an *AuthServerChangedError). Logins stored before
// that, under the server's name, are moved to the URL's names on first
// use when they were issued for that URL.

// SecretNames names the vault secrets of a server's login as stored under
// its name before logins were keyed by URL: the access token, the refresh
// token and the client secret a server may issue, each clamped to
// SECRET_RE.
func SecretNames(server string) []string { return namesOf(server).list() }

// LoginNames names the vault secrets of the login to the server at
// serverURL, shared by every entry at that URL.
func LoginNames(serverURL string) []string { return keyedNames(serverURL).list() }

type names struct{ access, refresh, client string }

func namesOf(server string) names {
	return names{
		access:  vault.ClampSecretName("mcp-oauth-" + server + "-access"),
		refresh: vault.ClampSecretName("mcp-oauth-" + server + "-refresh"),
		client:  vault.ClampSecretName("mcp-oauth-" + server + "-client"),
	}
}

// keyedNames are the names of the login to serverURL: its host, to be
// read in tai secret list, and a digest of its canonical form, which
// tells apart every URL.
func keyedNames(serverURL string) names {
	key, host := serverURL, "server"
	if u, err := url.Parse(serverURL); err == nil {
		key = canonical(u) + "?" + u.RawQuery // a query may name a tenant
		if h := strings.ToLower(u.Host); h != "" {
			host = strings.NewReplacer(":", "_", "[", "", "]", "").Replace(h)
		}
	}
	if len(host) > 60 {
		host = host[:60]
	}
	sum := sha256.Sum256([]byte(key))
	h := vault.ClampSecretName("mcp-oauth-" + host + "-" + hex.EncodeToString(sum[:6]))
	return names{access: h + "-access", refresh: h + "-refresh", client: h + "-client"}
}

func (n names) list() []string { return []string{n.access, n.refresh, n.client} }

// Tokens is one server's login in one profile's vault: sealed at rest when
// the vault is, and redacted from output like every secret.
type Tokens struct {
	Store   *vault.Store
	Profile string
	Server  string
	// URL is the server's URL, which names the login; "" keeps it under
	// the server's name.
	URL string
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

// names are the vault names of this login.
func (t *Tokens) names() names {
	if t.URL == "" {
		return namesOf(t.Server)
	}
	return keyedNames(t.URL)
}

// Load reads the stored login; ok is false when there is none.
func (t *Tokens) Load(ctx context.Context) (s Stored, ok bool, err error) {
	v, err := t.Store.SecretWithMeta(ctx, t.Profile, t.names().access)
	if vault.IsNotFound(err) && t.URL != "" {
		moved, aerr := t.adoptNamed(ctx)
		if aerr != nil {
			return Stored{}, false, aerr
		}
		if moved {
			v, err = t.Store.SecretWithMeta(ctx, t.Profile, t.names().access)
		}
	}
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

// adoptNamed moves a login stored under the server's name to the URL's
// names, in one transaction, when it was issued for this URL (or names no
// resource); one issued for another resource stays where it is, unused.
func (t *Tokens) adoptNamed(ctx context.Context) (bool, error) {
	old, n := namesOf(t.Server), t.names()
	// A read first: Load runs on every request to a server without a
	// login, which must not take the vault's write lock each time.
	if _, err := t.Store.SecretWithMeta(ctx, t.Profile, old.access); vault.IsNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	moved := false
	err := t.Store.UpdateSecrets(ctx, t.Profile, append(old.list(), n.list()...), func(cur map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		acc, ok := cur[old.access]
		if _, have := cur[n.access]; have || !ok {
			return nil, nil
		}
		u, err := url.Parse(t.URL)
		if r := acc.Meta[metaResource]; r != "" && (err != nil || !resourceMatches(r, u)) {
			return nil, nil
		}
		writes := map[string]*vault.SecretValue{}
		for i, from := range old.list() {
			if v, ok := cur[from]; ok {
				writes[n.list()[i]] = &v
				writes[from] = nil
			}
		}
		moved = true
		return writes, nil
	})
	return moved, err
}

// HasRefresh reports whether a refresh token is stored beside the login.
func (t *Tokens) HasRefresh(ctx context.Context) (bool, error) {
	_, err := t.Store.Secret(ctx, t.Profile, t.names().refresh)
	if vault.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Save stores a completed login, replacing any earlier one.
func (t *Tokens) Save(ctx context.Context, g Grant) error {
	n := t.names()
	s := Stored{Access: g.Token.Access, Expiry: g.Token.Expiry, Scope: g.Token.Scope, ClientID: g.Client.ID,
		AuthMethod: g.Client.AuthMethod, TokenEndpoint: g.TokenEndpoint, Resource: g.Resource, Issuer: g.Issuer}
	writes := map[string]*vault.SecretValue{n.access: {Value: s.Access, Meta: s.meta()}, n.refresh: nil, n.client: nil}
	if g.Token.Refresh != "" {
		writes[n.refresh] = &vault.SecretValue{Value: g.Token.Refresh, Meta: map[string]string{}}
	}
	if g.Client.Secret != "" {
		writes[n.client] = &vault.SecretValue{Value: g.Client.Secret, Meta: map[string]string{metaClientID: g.Client.ID}}
	}
	all := n.list()
	if t.URL != "" { // a login still under the server's name is replaced too
		for _, old := range namesOf(t.Server).list() {
			writes[old] = nil
			all = append(all, old)
		}
	}
	return t.Store.UpdateSecrets(ctx, t.Profile, all, func(map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		return writes, nil
	})
}

// Forget deletes the stored login: the tokens and the client secret a
// registration issued (a pre-registered client is kept).
func (t *Tokens) Forget(ctx context.Context) error {
	n := t.names()
	return t.Store.UpdateSecrets(ctx, t.Profile, n.list(), func(cur map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		if len(cur) == 0 {
			return nil, nil
		}
		return map[string]*vault.SecretValue{n.access: nil, n.refresh: nil, n.client: nil}, nil
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
