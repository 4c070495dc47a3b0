package bridge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
	"tai/internal/vault"
)

// A client registered beforehand with a server's authorization server (a
// developer console's client id, often with a secret) is kept per profile
// as one vault secret beside the server's login: the secret itself as its
// value, sealed with the vault ("" for a public client), and in its meta
// the client id, the callback port, the scopes, the reference when the
// secret was given as ${VAR} or ${input:ID} (resolved at each login), and
// the issuer it was first used with. A client is bound to that issuer: a
// server that moves to another authorization server is never shown it.
// See docs/mcp.md, "Logging in".

// Meta keys of the pre-registered client's secret.
const (
	preClientID  = "client_id"
	prePort      = "callback_port"
	preScopes    = "scopes"
	preSecretRef = "secret_ref"
	preIssuer    = "issuer"
)

// ClientSecretName names the vault secret that holds server's
// pre-registered client.
func ClientSecretName(server string) string {
	return vault.ClampSecretName("mcp-oauth-" + server + "-preclient")
}

// preClient is a stored pre-registered client.
type preClient struct {
	client oauth.Client
	port   int
	scopes []string
	issuer string
	ref    string // the secret as a reference, "" when stored itself
}

// SaveClient stores o as server's pre-registered client for the profile,
// replacing any earlier one; the next login uses it.
func (b *Bridge) SaveClient(ctx context.Context, server string, o config.OAuthClient) error {
	if err := o.Check(); err != nil {
		return err
	}
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return err
	}
	if srv.Transport != config.HTTP {
		return fmt.Errorf("MCP server %s runs as a command: an OAuth client is for HTTP servers (give a command its credentials through its env)", server)
	}
	meta := map[string]string{preClientID: o.ClientID}
	if o.CallbackPort > 0 {
		meta[prePort] = strconv.Itoa(o.CallbackPort)
	}
	if len(o.Scopes) > 0 {
		meta[preScopes] = strings.Join(o.Scopes, " ")
	}
	value := o.ClientSecret
	if o.SecretIsReference() {
		meta[preSecretRef], value = o.ClientSecret, ""
	} else if value != "" {
		b.Store.AddKnown(ClientSecretName(server), value)
	}
	if err := b.Store.SetSecret(ctx, b.Profile, ClientSecretName(server), value, meta); err != nil {
		return err
	}
	b.audit(ctx, vault.KindMCPSet, server+":oauth-client")
	return nil
}

// loadClient reads server's pre-registered client; ok is false when there
// is none. A secret given as a reference is resolved now.
func (b *Bridge) loadClient(ctx context.Context, server string) (pc preClient, ok bool, err error) {
	v, err := b.Store.SecretWithMeta(ctx, b.Profile, ClientSecretName(server))
	if vault.IsNotFound(err) {
		return preClient{}, false, nil
	}
	if err != nil {
		return preClient{}, false, err
	}
	pc = preClient{client: oauth.Client{ID: v.Meta[preClientID], Secret: v.Value}, issuer: v.Meta[preIssuer], ref: v.Meta[preSecretRef],
		scopes: strings.Fields(v.Meta[preScopes])}
	pc.port, _ = strconv.Atoi(v.Meta[prePort])
	if pc.client.ID == "" {
		return preClient{}, false, nil
	}
	if pc.ref != "" {
		if pc.client.Secret, err = config.ExpandSecret(pc.ref, b.sources(ctx)); err != nil {
			return preClient{}, false, fmt.Errorf("MCP server %s: %w", server, err)
		}
		b.Store.AddKnown(ClientSecretName(server), pc.client.Secret)
	}
	return pc, true, nil
}

// bindClient records the issuer server's pre-registered client was first
// used with.
func (b *Bridge) bindClient(ctx context.Context, server, issuer string) error {
	return b.Store.UpdateSecrets(ctx, b.Profile, []string{ClientSecretName(server)}, func(cur map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		v, ok := cur[ClientSecretName(server)]
		if !ok || v.Meta[preIssuer] == issuer {
			return nil, nil
		}
		v.Meta[preIssuer] = issuer
		return map[string]*vault.SecretValue{ClientSecretName(server): &v}, nil
	})
}

// errClientElsewhere refuses a pre-registered client at an authorization
// server other than the one it was registered with.
var errClientElsewhere = errors.New("was registered with another authorization server")

// clientFor is the pre-registered client a login to server at issuer
// uses, if any: one bound to another issuer is refused, never sent.
func (b *Bridge) clientFor(ctx context.Context, server, issuer string) (preClient, bool, error) {
	pc, ok, err := b.loadClient(ctx, server)
	if err != nil || !ok {
		return pc, ok, err
	}
	if pc.issuer != "" && !oauth.SameIssuer(pc.issuer, issuer) {
		return preClient{}, false, fmt.Errorf("MCP server %s: its pre-registered client %s (at %s), and the server now names %s: register a client there and give it with `tai mcp login %s --client-id ID`",
			server, errClientElsewhere, printable(pc.issuer, 200), printable(issuer, 200), server)
	}
	return pc, true, nil
}

// maskedSecret shows a client secret on a consent screen: never itself.
func maskedSecret(o config.OAuthClient) string {
	switch {
	case o.ClientSecret == "":
		return "none (a public client)"
	case o.SecretIsReference():
		return printable(o.ClientSecret, 200) + ", read at each login"
	}
	return "******** (kept sealed in the vault)"
}
