package oauth

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Transport puts a stored login's bearer token on every request: a token
// that has expired is refreshed before use, and a 401 to a request that
// carried one refreshes once (discovering the token endpoint again from the
// challenge) and retries the request with the new token. Without a stored
// login requests go out as they are, so a 401 reaches the caller. The token
// goes only to the origin of the resource it was issued for; a request to
// any other origin fails before anything is sent, whatever redirect policy
// the client around the transport has.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base   http.RoundTripper
	Tokens *Tokens
}

var _ http.RoundTripper = (*Transport)(nil)

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	access, err := t.Tokens.freshFor(ctx, req.URL)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	if access == "" {
		return t.base().RoundTrip(req)
	}
	resp, err := t.base().RoundTrip(withBearer(req, access))
	if err != nil || resp.StatusCode != http.StatusUnauthorized || (req.Body != nil && req.GetBody == nil) {
		return resp, err
	}
	ch, _ := ParseChallenge(resp.Header.Get("WWW-Authenticate"))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
	resp.Body.Close()
	endpoint, err := t.rediscover(req, ch)
	if err != nil {
		return nil, err
	}
	fresh, err := t.Tokens.Refresh(ctx, access, endpoint)
	if err != nil {
		return nil, err
	}
	retry := withBearer(req, fresh)
	if req.GetBody != nil {
		if retry.Body, err = req.GetBody(); err != nil {
			return nil, err
		}
	}
	return t.base().RoundTrip(retry)
}

// rediscover finds the token endpoint again after a 401, as the spec asks;
// "" keeps the stored one (discovery failed or fell back to defaults). A
// server whose metadata now names another authorization server than the
// login's is an *AuthServerChangedError: the old server's tokens are not
// refreshed, and nothing of them goes to the new one.
func (t *Transport) rediscover(req *http.Request, ch Challenge) (string, error) {
	s, ok, err := t.Tokens.Load(req.Context())
	if err != nil || !ok {
		return "", nil
	}
	u := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path, RawPath: req.URL.RawPath}
	d, err := Discover(req.Context(), t.Tokens.HTTPClient, u.String(), ch)
	switch {
	case err != nil || d.Defaulted:
		return "", nil
	case s.Issuer != "" && !SameIssuer(d.Issuer, s.Issuer):
		return "", &AuthServerChangedError{Server: t.Tokens.Server, From: s.Issuer, To: d.Issuer}
	}
	return d.Server.TokenEndpoint, nil
}

// AuthServerChangedError is a 401 from a server whose protected-resource
// metadata names another authorization server than the one its login
// came from (SEP-2352). The login's client and tokens belong to the old
// one: tai logs in again, registering with the new one.
type AuthServerChangedError struct {
	Server   string
	From, To string
}

func (e *AuthServerChangedError) Error() string {
	return fmt.Sprintf("MCP server %s now names the authorization server %s, not %s where its login came from; log in again (`tai mcp login %s`): tai registers with the new one and shows it nothing of the old login",
		e.Server, redactURL(e.To), redactURL(e.From), e.Server)
}

// withBearer is a copy of req carrying token.
func withBearer(req *http.Request, token string) *http.Request {
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

// closeBody honours RoundTrip's contract on paths that send nothing.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
