package web

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"tai/internal/redirect"
	"tai/internal/tools"
	"tai/internal/tools/clip"
)

// Limits of one request.
const (
	maxRedirects = 5
	timeout      = 30 * time.Second
	maxBody      = 5 << 20  // bytes downloaded at most
	showHead     = 60 << 10 // text shown: the first showHead bytes …
	showTail     = 4 << 10  // … and the last showTail
)

// transport is shared by every request, for its connection pool; see
// egress for which addresses it reaches. Built on first use: cloning
// net/http's transport cost every start of tai.
var transport = sync.OnceValue(func() http.RoundTripper { return newEgress(systemLookup, http.ProxyFromEnvironment) })

// request is one HTTP exchange a tool asks for.
type request struct {
	method string
	url    string
	header map[string]string
	body   string
	secret *secretRef
}

// response is what came back, the body capped at maxBody.
type response struct {
	status    string // "200 OK"
	code      int
	proto     string
	header    http.Header
	url       *url.URL // after redirects
	elsewhere *url.URL // a redirect to another host, not followed
	body      []byte
	truncated bool
}

// exchange carries out r for a tool call in env. The secret's value, when
// r names one, is returned so the caller can keep it out of the result.
func exchange(ctx context.Context, env *tools.Env, r request) (*response, string, error) {
	u, err := checkURL(r.url)
	if err != nil {
		return nil, "", err
	}
	ctx = withApprovals(ctx, env)
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), strings.NewReader(r.body))
	if err != nil {
		return nil, "", err
	}
	if r.body == "" {
		req.Body, req.GetBody, req.ContentLength = http.NoBody, nil, 0
	}
	req.Header.Set("User-Agent", userAgent)
	for k, v := range r.header {
		if !headerName.MatchString(k) || strings.ContainsAny(v, "\r\n") {
			return nil, "", fmt.Errorf("header %q: names are tokens and values hold no line breaks", k)
		}
		req.Header.Set(k, v)
	}
	value := ""
	if r.secret != nil {
		if value, err = secretValue(ctx, env, r.secret); err != nil {
			return nil, "", err
		}
		req.Header.Set(r.secret.Header, r.secret.Prefix+value)
	}
	var elsewhere *url.URL
	client := &http.Client{Transport: transport(), Timeout: timeout, CheckRedirect: redirectPolicy(u, r.secret, &elsewhere)}
	resp, err := client.Do(req)
	if err != nil {
		return nil, value, describe(r.method, u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, value, fmt.Errorf("%s %s: reading the body: %w", r.method, resp.Request.URL, err)
	}
	out := &response{status: resp.Status, code: resp.StatusCode, proto: resp.Proto, header: resp.Header, url: resp.Request.URL, elsewhere: elsewhere, body: body}
	if len(body) > maxBody {
		out.body, out.truncated = body[:maxBody], true
	}
	return out, value, nil
}

// checkURL accepts absolute http and https URLs only.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil:
		return nil, fmt.Errorf("not a URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("only http and https URLs can be fetched, not %q", raw)
	case u.Host == "":
		return nil, fmt.Errorf("URL %q has no host", raw)
	}
	return u, nil
}

// redirectPolicy follows at most maxRedirects redirects, to http and https
// only. On any hop that leaves the origin of the URL the call named
// (another scheme, host or port) the secret's header and every header
// that may be a credential go no further (redirect.StripCredentials). A
// redirect to another host is followed only when the context's
// RedirectAllow says so; otherwise the redirect response is the answer and
// *elsewhere its target, for the tool to report.
func redirectPolicy(origin *url.URL, s *secretRef, elsewhere **url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return fmt.Errorf("stopped after %d redirects (the limit)", maxRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("refused a redirect to %s: only http and https are followed", req.URL.Redacted())
		}
		if !sameHost(via[len(via)-1].URL, req.URL) && !redirectAllowed(req.Context(), req.URL) {
			*elsewhere = req.URL
			return http.ErrUseLastResponse
		}
		if !redirect.SameOrigin(origin, req.URL) {
			redirect.StripCredentials(req.Header)
			if s != nil {
				req.Header.Del(s.Header)
			}
		}
		return nil
	}
}

// elsewhereNote tells the model where a response redirected and how to
// follow it.
func elsewhereNote(tool string, from, to *url.URL) string {
	return fmt.Sprintf("%s redirected to another host: %s\nThe redirect was not followed. Call %s with that URL to fetch it; tai asks the person first where the host needs approval.",
		from.Redacted(), to.Redacted(), tool)
}

// describe turns a client error into one line saying what went wrong.
func describe(method string, u *url.URL, err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	var dns *net.DNSError
	var cert *x509.UnknownAuthorityError
	var host x509.HostnameError
	var netErr net.Error
	var refused *RefusedError
	switch {
	case errors.As(err, &refused):
		err = refused
	case errors.Is(err, syscall.ECONNREFUSED):
		err = fmt.Errorf("connection refused: nothing is listening at %s", hostPort(u))
	case errors.As(err, &dns):
		err = fmt.Errorf("cannot resolve host %s", dns.Name)
	case errors.As(err, &cert), errors.As(err, &host):
		err = fmt.Errorf("TLS certificate not trusted: %v", err)
	case errors.Is(err, context.Canceled):
		err = errors.New("cancelled")
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		err = fmt.Errorf("no response within %s", timeout)
	}
	return fmt.Errorf("%s %s: %w", method, u.Redacted(), err)
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return u.Host + ":443"
	}
	return u.Host + ":80"
}

// secretValue reads the named secret from the call's vault and profile.
func secretValue(ctx context.Context, env *tools.Env, s *secretRef) (string, error) {
	if env == nil || env.Store == nil {
		return "", fmt.Errorf("secret %s: no vault is open in this host", s.Name)
	}
	v, err := env.Store.Secret(ctx, env.Profile, s.Name)
	if err != nil {
		return "", fmt.Errorf("secret %s: %w; list the names with secret_list", s.Name, err)
	}
	if strings.ContainsAny(v, "\r\n") {
		return "", fmt.Errorf("secret %s holds a line break and cannot go in a header", s.Name)
	}
	return v, nil
}

// redact keeps secret values out of text: the one this call sent, and
// every value the vault knows.
func redact(env *tools.Env, s *secretRef, value, text string) string {
	if s != nil && value != "" {
		text = strings.ReplaceAll(text, value, "[secret:"+s.Name+"]")
	}
	if env != nil && env.Store != nil {
		text = env.Store.Redact(text)
	}
	return text
}

// bodyText renders a text body capped for the model, noting a download cut
// short.
func bodyText(body []byte, truncated bool) string {
	b := clip.New(showHead, showTail)
	b.Write(body)
	s := b.String()
	if truncated {
		s += fmt.Sprintf("\n[body over %s bytes: the rest was not downloaded]", clip.Count(maxBody))
	}
	return s
}

// withApprovals gives ctx the approval policy's answers where the caller
// set none: a local address is reached for a host the person approved by
// name on this call's screen or by a local-host grant, and a redirect to
// another host is followed when a standing grant already covers that host.
func withApprovals(ctx context.Context, env *tools.Env) context.Context {
	if ctx.Value(hostAllowKey{}) == nil {
		ctx = WithLocalAllowed(ctx, func(ctx context.Context, host string) bool {
			return tools.LocalHostApproved(ctx, env, host)
		})
	}
	if ctx.Value(redirectAllowKey{}) == nil {
		ctx = WithRedirectAllowed(ctx, func(ctx context.Context, u *url.URL) bool {
			if env == nil || env.Store == nil {
				return false
			}
			ok, err := env.Store.HasGrant(ctx, env.Profile, tools.GrantHost, tools.HostOf(u.String()))
			return err == nil && ok
		})
	}
	return ctx
}
