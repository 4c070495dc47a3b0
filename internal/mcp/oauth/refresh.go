package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"tai/internal/vault"
)

// refreshTimeout bounds one refresh_token grant. The refresh runs while
// the vault's write lock is held, and other writers wait for that lock at
// most the vault's busy timeout (30s), so this stays well below it.
const refreshTimeout = 20 * time.Second

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
	n := t.names()
	sem, _ := refreshing.LoadOrStore(t.Store.Path()+"\x00"+t.Profile+"\x00"+n.access, make(chan struct{}, 1))
	select {
	case sem.(chan struct{}) <- struct{}{}:
		defer func() { <-sem.(chan struct{}) }()
	case <-ctx.Done():
		return "", ctx.Err()
	}
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
