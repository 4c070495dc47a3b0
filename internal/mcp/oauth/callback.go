package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// CallbackPath is where the browser is sent back to.
const CallbackPath = "/callback"

// ErrStateMismatch is a redirect that does not belong to the login that
// is waiting: its state differs.
var ErrStateMismatch = errors.New("the browser came back with a state that does not match this login (a stale tab or another login); nothing was exchanged")

// Expect is what the redirect of one login must carry: its state, and,
// for RFC 9207, the issuer of the authorization server it went to.
type Expect struct {
	State string
	// Issuer is the authorization server metadata's issuer, compared as a
	// string with the redirect's iss, without normalisation: a trailing
	// slash or another case is another issuer (RFC 9207 §2.4).
	Issuer string
	// IssRequired is set when the metadata says the server sends iss
	// (authorization_response_iss_parameter_supported): a redirect without
	// it is refused. Without it, an iss that is there is still compared.
	IssRequired bool
}

// Errors of a redirect that carries the wrong issuer (RFC 9207): it may
// come from another authorization server, a mix-up attack.
var (
	ErrIssMissing = errors.New("the authorization server says it names itself on its redirects (RFC 9207 iss), but this one carries no iss: it may come from another server (a mix-up attack), or the server is misconfigured; nothing was exchanged")
	ErrIssWrong   = errors.New("the redirect names another authorization server than the one the login went to (RFC 9207 iss): it may come from another server (a mix-up attack); nothing was exchanged")
)

// Code reads the authorization code from a redirect's query, or why
// there is none: a wrong state, a wrong or missing iss, the authorization
// server's error=, or no code.
func (e Expect) Code(q url.Values) (string, error) {
	if q.Get("state") != e.State {
		return "", ErrStateMismatch
	}
	iss, hasIss := q["iss"]
	switch {
	case hasIss && (len(iss) != 1 || iss[0] != e.Issuer):
		return "", fmt.Errorf("%w (it names %q; the login went to %q)", ErrIssWrong, printable(strings.Join(iss, " "), 200), printable(e.Issuer, 200))
	case !hasIss && e.IssRequired:
		return "", ErrIssMissing
	case q.Get("error") != "":
		err := &Error{Code: printable(q.Get("error"), 64), Description: printable(q.Get("error_description"), 200)}
		return "", fmt.Errorf("the authorization server refused the login: %s", codeAndDescription(err))
	case q.Get("code") == "":
		return "", errors.New("the browser came back without an authorization code")
	}
	return q.Get("code"), nil
}

// Callback is the loopback listener a login's browser redirect comes back
// to (McpOAuthCallback): 127.0.0.1, an ephemeral port (or the one a
// pre-registered client's redirect URI names), one redirect. It answers
// the browser with a small page saying the tab can be closed.
type Callback struct {
	expect Expect
	ln     net.Listener
	srv    *http.Server
	once   sync.Once
	got    chan callbackResult
}

type callbackResult struct {
	code string
	err  error
}

// ListenCallback starts listening for the redirect of the login that
// expects want, on port of 127.0.0.1 (0: any free one).
func ListenCallback(want Expect, port int) (*Callback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("listening on 127.0.0.1 for the login redirect: %w", err)
	}
	c := &Callback{expect: want, ln: ln, got: make(chan callbackResult, 1)}
	c.srv = &http.Server{Handler: http.HandlerFunc(c.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = c.srv.Serve(ln) }()
	return c, nil
}

// RedirectURI is the URI to register and to send on the authorization
// request.
func (c *Callback) RedirectURI() string {
	return "http://" + c.ln.Addr().String() + CallbackPath
}

// Wait returns the authorization code of the first redirect, or why there
// is none: the authorization server's error=, a wrong state, ctx's end, or
// no redirect within timeout (MCP_OAUTH_TIMEOUT).
func (c *Callback) Wait(ctx context.Context, timeout time.Duration) (string, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-c.got:
		return r.code, r.err
	case <-timer.C:
		return "", fmt.Errorf("the browser did not come back within %s (MCP_OAUTH_TIMEOUT)", timeout)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Close stops listening.
func (c *Callback) Close() error { return c.srv.Close() }

func (c *Callback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != CallbackPath {
		http.NotFound(w, r)
		return
	}
	var res callbackResult
	res.code, res.err = c.expect.Code(r.URL.Query())
	delivered := false
	c.once.Do(func() {
		c.got <- res
		delivered = true
	})
	page(w, res.err, delivered)
}

func codeAndDescription(e *Error) string {
	if e.Description == "" {
		return e.Code
	}
	return e.Code + ": " + e.Description
}

// page answers the browser.
func page(w http.ResponseWriter, err error, delivered bool) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	title, text := "Logged in", "tai has the login. You can close this tab and go back to the terminal."
	switch {
	case !delivered:
		w.WriteHeader(http.StatusConflict)
		title, text = "Already answered", "This login already finished. You can close this tab."
	case err != nil:
		w.WriteHeader(http.StatusBadRequest)
		title, text = "Login failed", wire.Printable(err.Error(), 300)+" You can close this tab; the terminal says what to do."
	}
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>tai: %s</title><body style=\"font-family:sans-serif;margin:3em\"><h1>%s</h1><p>%s</p></body>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(text))
}
