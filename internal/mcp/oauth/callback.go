package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// CallbackPath is where the browser is sent back to.
const CallbackPath = "/callback"

// ErrStateMismatch is a redirect that does not belong to the login that
// is waiting: its state differs.
var ErrStateMismatch = errors.New("the browser came back with a state that does not match this login (a stale tab or another login); nothing was exchanged")

// Callback is the loopback listener a login's browser redirect comes back
// to (McpOAuthCallback): 127.0.0.1, an ephemeral port, one redirect. It
// answers the browser with a small page saying the tab can be closed.
type Callback struct {
	state string
	ln    net.Listener
	srv   *http.Server
	once  sync.Once
	got   chan callbackResult
}

type callbackResult struct {
	code string
	err  error
}

// ListenCallback starts listening for the redirect of the login whose
// state parameter is state.
func ListenCallback(state string) (*Callback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on 127.0.0.1 for the login redirect: %w", err)
	}
	c := &Callback{state: state, ln: ln, got: make(chan callbackResult, 1)}
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
	q := r.URL.Query()
	var res callbackResult
	switch {
	case q.Get("state") != c.state:
		res.err = ErrStateMismatch
	case q.Get("error") != "":
		e := &Error{Code: printable(q.Get("error"), 64), Description: printable(q.Get("error_description"), 200)}
		res.err = fmt.Errorf("the authorization server refused the login: %s", codeAndDescription(e))
	case q.Get("code") == "":
		res.err = errors.New("the browser came back without an authorization code")
	default:
		res.code = q.Get("code")
	}
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
