package oauth

import (
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
	fresh, err := t.Tokens.Refresh(ctx, access, t.rediscover(req, ch))
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
// "" keeps the stored one (discovery failed, fell back to defaults, or
// names another authorization server, whose tokens these are not).
func (t *Transport) rediscover(req *http.Request, ch Challenge) string {
	s, ok, err := t.Tokens.Load(req.Context())
	if err != nil || !ok {
		return ""
	}
	u := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path, RawPath: req.URL.RawPath}
	d, err := Discover(req.Context(), t.Tokens.HTTPClient, u.String(), ch)
	if err != nil || d.Defaulted || !sameIssuer(d.Issuer, s.Issuer) {
		return ""
	}
	return d.Server.TokenEndpoint
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
