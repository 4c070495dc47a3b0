package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sync"

	"tai/internal/mcp/wire"
	"tai/internal/redirect"
)

// HTTP reaches a server over Streamable HTTP (McpHttpTransport): one POST
// per message, the reply a JSON message or an event stream. tai sends no
// DELETE, and a GET only to tell a legacy HTTP+SSE server apart when its
// initialize POST was refused with 404 or 405; a session ends by dropping
// its id.
type HTTP struct {
	URL string
	// Headers go on every POST (Authorization, API keys …).
	Headers map[string]string
	// HTTPClient carries the requests; nil means a client of the
	// connection's own. The OAuth layer passes one with its round tripper.
	// Whatever its redirect policy, the connection follows redirect.Check:
	// redirects within the URL's origin only.
	HTTPClient *http.Client
	// Label names the server in errors instead of the URL, as
	// [Stdio.Label] does; its query is dropped too.
	Label string
}

// String returns the URL (or Label) without its query, which may hold
// secrets.
func (h HTTP) String() string {
	shown := h.URL
	if h.Label != "" {
		shown = h.Label
	}
	u, err := url.Parse(shown)
	if err != nil {
		return "(invalid url)"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return wire.Printable(u.String(), 200)
}

const (
	headerSession  = wire.HeaderSessionID
	headerVersion  = wire.HeaderProtocolVersion
	acceptBoth     = "application/json, text/event-stream"
	bodyQuoteBytes = 512 // how much of a failed answer's body an error quotes
)

type httpTransport struct {
	url     string
	headers map[string]string
	hc      *http.Client
	own     bool // hc is ours: close its idle connections on close
	peer    peer
	log     *tail

	mu        sync.Mutex
	session   string
	version   string
	stateless bool       // the stateless era: request headers, no session
	renew     sync.Mutex // one re-initialization at a time

	lostCh    chan struct{}
	closed    context.Context // done once close began
	shut      context.CancelFunc
	closeOnce sync.Once
}

func (h HTTP) dial(ctx context.Context, p peer, log *tail) (transport, error) {
	u, err := url.Parse(h.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("url %q is not an http(s) URL", h.String())
	}
	t := &httpTransport{url: h.URL, headers: h.Headers, hc: redirect.Client(h.HTTPClient), peer: p, log: log,
		lostCh: make(chan struct{})}
	t.closed, t.shut = context.WithCancel(context.Background())
	if h.HTTPClient == nil {
		t.hc.Transport = http.DefaultTransport.(*http.Transport).Clone()
		t.own = true
	}
	return t, nil
}

func (t *httpTransport) start() {}

func (t *httpTransport) negotiated(era wire.Era, version string) {
	t.mu.Lock()
	t.version, t.stateless = version, !era.Sessions
	if t.stateless {
		t.session = ""
	}
	t.mu.Unlock()
}

func (t *httpTransport) closesToCancel() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stateless
}

// lost closes only on close: each POST fails or succeeds on its own.
func (t *httpTransport) lost() <-chan struct{} { return t.lostCh }

func (t *httpTransport) cause() error { return ErrClosed }

func (t *httpTransport) close() error {
	t.closeOnce.Do(func() {
		close(t.lostCh)
		t.shut()
		if t.own {
			t.hc.CloseIdleConnections()
		}
	})
	return nil
}

// send POSTs one message. A 404 on a POST that carried a session id means
// the server forgot the session: tai initializes once more and retries
// once.
func (t *httpTransport) send(ctx context.Context, m *wire.Message) error {
	body, err := encode(m)
	if err != nil {
		return err
	}
	session, err := t.post(ctx, m, body)
	var he *wire.HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusNotFound || session == "" || m.Method == wire.MethodInitialize {
		return err
	}
	if err := t.reopen(ctx, session); err != nil {
		return fmt.Errorf("session expired (http 404) and initializing again failed: %w", err)
	}
	_, err = t.post(ctx, m, body)
	return err
}

// reopen runs the handshake again unless another request already did
// since session failed.
func (t *httpTransport) reopen(ctx context.Context, failed string) error {
	t.renew.Lock()
	defer t.renew.Unlock()
	t.mu.Lock()
	current := t.session
	if current == failed {
		t.session, t.version = "", ""
	}
	t.mu.Unlock()
	if current != failed {
		return nil
	}
	t.log.note("server dropped session; initializing again")
	return t.peer.reopen(ctx)
}

// post sends body and reads the reply; it returns the session id it sent.
// Closing the transport cuts it short.
func (t *httpTransport) post(ctx context.Context, m *wire.Message, body []byte) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(t.closed, cancel)()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", acceptBoth)
	t.mu.Lock()
	session, version, stateless := t.session, t.version, t.stateless
	t.mu.Unlock()
	if session != "" {
		req.Header.Set(headerSession, session)
	}
	if version != "" {
		req.Header.Set(headerVersion, version)
	}
	if stateless {
		t.setRequestHeaders(req.Header, m)
	}
	resp, err := t.hc.Do(req)
	var re *redirect.Error
	if errors.As(err, &re) {
		return session, fmt.Errorf("%w; if you trust it, register %s as the server's URL instead", re, redirect.Show(re.To))
	}
	if err != nil {
		return session, fmt.Errorf("posting to the server: %w", unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		err := httpError(resp)
		if stateless && t.answered(m, err) {
			return session, nil
		}
		if m.Method == wire.MethodInitialize && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed) &&
			t.servesEventStream(ctx) {
			return session, &LegacySSEError{URL: HTTP{URL: t.url}.String(), Err: err}
		}
		return session, err
	}
	if id := resp.Header.Get(headerSession); id != "" && m.Method == wire.MethodInitialize && !stateless {
		t.mu.Lock()
		t.session = id
		t.mu.Unlock()
	}
	return session, t.readReply(m, resp)
}

// unwrapURLError drops net/http's "Post <url>:" prefix, which would repeat
// the URL and its query.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// answered delivers, in the stateless era, a JSON-RPC error that came with
// a 4xx status as the answer to request m: such a server refuses with a
// status (400 for -32602, 404 for -32601) and the error in the body, and
// the caller should see the error as it would over any transport.
// Logins (401, 403) stay HTTP errors for the OAuth layer.
func (t *httpTransport) answered(m *wire.Message, err error) bool {
	var he *wire.HTTPError
	if !errors.As(err, &he) || he.RPC == nil || he.Status < 400 || he.Status > 499 ||
		he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden || !m.IsRequest() || he.RPCID != m.ID {
		return false
	}
	t.peer.deliver(wire.NewErrorResponse(m.ID, he.RPC))
	return true
}

// setRequestHeaders adds the stateless era's request headers, which
// mirror the body for intermediaries: Mcp-Method on every message,
// Mcp-Name on prompts/get (the prompt), resources/read (the URI) and the
// Tasks extension's tasks/get, tasks/update and tasks/cancel (the task), and on
// tools/call Mcp-Name and an Mcp-Param header for each argument the tool's
// x-mcp-header annotations name (values base64 between sentinels when
// they are not plain ASCII).
func (t *httpTransport) setRequestHeaders(h http.Header, m *wire.Message) {
	h.Set(wire.HeaderMethod, m.Method)
	switch m.Method {
	case wire.MethodPromptsGet:
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			h.Set(wire.HeaderName, wire.HeaderValue(p.Name))
		}
		return
	case wire.MethodResourcesRead:
		var p wire.ResourceParams
		if json.Unmarshal(m.Params, &p) == nil {
			h.Set(wire.HeaderName, wire.HeaderValue(p.URI))
		}
		return
	case wire.MethodTasksGet, wire.MethodTasksUpdate, wire.MethodTasksCancel:
		var p struct {
			TaskID string `json:"taskId"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			h.Set(wire.HeaderName, wire.HeaderValue(p.TaskID))
		}
		return
	case wire.MethodToolsCall:
	default:
		return
	}
	var p wire.CallToolParams
	if err := p.UnmarshalJSON(m.Params); err == nil {
		h.Set(wire.HeaderName, wire.HeaderValue(p.Name))
		setParamHeaders(h, t.peer.paramHeaders(p.Name), p.Arguments)
	}
}

// httpError turns a non-2xx answer into a *wire.HTTPError quoting the start
// of its body, and the JSON-RPC error it holds, if any.
func httpError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, rpcErrorBytes))
	he := &wire.HTTPError{
		Status:          resp.StatusCode,
		WWWAuthenticate: resp.Header.Get("WWW-Authenticate"),
		Body:            wire.Printable(string(bytes.TrimSpace(b)), 200),
	}
	if m, err := wire.Decode(b); err == nil && m.Error != nil {
		he.RPC, he.RPCID = m.Error, m.ID
	}
	return he
}

// rpcErrorBytes is how much of a failed answer's body is read for a
// JSON-RPC error: -32022 lists versions, which take more than a quote.
const rpcErrorBytes = 8 << 10

// mediaType returns the reply's media type, lower-cased, without parameters.
func mediaType(resp *http.Response) string {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// LegacySSEError is the failure of a URL that refuses the initialize POST
// but serves an event stream on GET: a server of the legacy HTTP+SSE
// transport (protocol 2024-11-05), which tai does not implement.
type LegacySSEError struct {
	URL string
	Err error // the POST's *wire.HTTPError
}

func (e *LegacySSEError) Error() string {
	refused := e.Err.Error()
	var he *wire.HTTPError
	if errors.As(e.Err, &he) {
		refused = fmt.Sprintf("http %d", he.Status) // its body is the server's error page
	}
	return fmt.Sprintf("%s is a legacy HTTP+SSE server (it refused the POST with %s and serves an event stream on GET); "+
		"tai speaks only Streamable HTTP: use the server's Streamable HTTP URL if it has one, "+
		"or run a bridge such as mcp-remote as a stdio server: tai mcp add NAME -- npx -y mcp-remote %s --transport sse-only",
		e.URL, refused, e.URL)
}

func (e *LegacySSEError) Unwrap() error { return e.Err }

// eventStreamRequest is a GET of the URL asking for an event stream, with
// the configured headers.
func (t *httpTransport) eventStreamRequest(ctx context.Context) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	return req, nil
}

// servesEventStream asks, after a POST was refused, whether the URL answers
// a GET with an event stream, as a legacy HTTP+SSE endpoint does. Only the
// status and headers are read; the stream is closed at once.
func (t *httpTransport) servesEventStream(ctx context.Context) bool {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := t.eventStreamRequest(ctx)
	if err != nil {
		return false
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK && mediaType(resp) == "text/event-stream"
}
