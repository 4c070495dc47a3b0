// Package provider holds what the wire protocols share: sending a request
// under deadlines, retrying, turning HTTP failures into *llm.Error values
// with one clear line, and assembling a streamed answer into a Response.
package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"tai/internal/llm"
)

var (
	errIdle     = errors.New("idle timeout")
	errDeadline = errors.New("request deadline")
)

// Transport sends one client's requests. Its Config is resolved (see
// [llm.Config.Resolve]).
type Transport struct {
	Config llm.Config
}

// Post sends body as JSON to url with header added. It returns the
// response when the status is 2xx and the body is not an HTML page;
// anything else is an *llm.Error. The returned body is watched by the idle
// timer and its read errors are *llm.Error values; the caller closes it.
func (t *Transport) Post(ctx context.Context, url string, header http.Header, body []byte) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{cancel: cancel, idle: t.Config.IdleTimeout}
	w.timer = time.AfterFunc(w.idle, func() { cancel(errIdle) })
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		w.stop()
		return nil, t.fail(llm.KindConfig, 0, fmt.Sprintf("bad request URL %q: fix TAI_BASE_URL", url), err)
	}
	for _, h := range []http.Header{t.Config.Header, header} {
		for k, v := range h {
			req.Header[http.CanonicalHeaderKey(k)] = v
		}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "tai")
	resp, err := t.Config.HTTPClient.Do(req)
	if err != nil {
		e := t.interrupted(ctx, err, false) // before stop, which cancels ctx
		w.stop()
		return nil, e
	}
	g := &guardedBody{rc: resp.Body, w: w, ctx: ctx, t: t}
	resp.Body = g
	if resp.StatusCode/100 != 2 {
		defer g.Close()
		data, err := io.ReadAll(io.LimitReader(g, 64<<10))
		if err != nil {
			return nil, err
		}
		return nil, t.classify(resp.StatusCode, resp.Header, data)
	}
	if isHTML(resp.Header.Get("Content-Type"), nil) {
		g.Close()
		return nil, t.fail(llm.KindBadResponse, resp.StatusCode, fmt.Sprintf(
			"got an HTML page from %s instead of an API answer: check TAI_BASE_URL", t.Config.BaseURL), nil)
	}
	return resp, nil
}

// fail builds an error of this transport's provider.
func (t *Transport) fail(kind llm.ErrorKind, status int, msg string, err error) *llm.Error {
	return &llm.Error{Provider: t.Config.Provider, Kind: kind, Status: status, Message: msg, Err: err}
}

// interrupted explains err, a failure to send or to read, by what stopped
// it: the idle timer, the request deadline, the caller, or the network.
func (t *Transport) interrupted(ctx context.Context, err error, midStream bool) *llm.Error {
	cfg := t.Config
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errIdle) && midStream:
		return t.fail(llm.KindTimeout, 0, fmt.Sprintf(
			"stream stalled: nothing for %v mid-answer: try again", cfg.IdleTimeout), context.DeadlineExceeded)
	case errors.Is(cause, errIdle):
		return t.fail(llm.KindTimeout, 0, fmt.Sprintf(
			"no answer from %s within %v: check that the server is up and TAI_BASE_URL", cfg.BaseURL, cfg.IdleTimeout), context.DeadlineExceeded)
	case errors.Is(cause, errDeadline):
		return t.fail(llm.KindTimeout, 0, fmt.Sprintf(
			"no complete answer within %v: try again or ask for less", cfg.Timeout), context.DeadlineExceeded)
	case errors.Is(cause, context.DeadlineExceeded):
		return t.fail(llm.KindTimeout, 0, "deadline reached before the answer was complete", context.DeadlineExceeded)
	case cause != nil:
		return t.fail(llm.KindCanceled, 0, "canceled", context.Canceled)
	}
	if midStream {
		e := t.fail(llm.KindStream, 0, fmt.Sprintf("stream cut off mid-answer (%s): try again", cleanErr(err)), err)
		e.Retryable = true
		return e
	}
	return t.network(err)
}

// watchdog cancels a request that stays silent for idle.
type watchdog struct {
	mu     sync.Mutex
	timer  *time.Timer
	idle   time.Duration
	cancel context.CancelCauseFunc
}

func (w *watchdog) progress() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Reset(w.idle)
	}
}

func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.cancel(nil)
}

// guardedBody feeds the watchdog and turns read failures into *llm.Error.
type guardedBody struct {
	rc  io.ReadCloser
	w   *watchdog
	ctx context.Context
	t   *Transport
}

func (g *guardedBody) Read(p []byte) (int, error) {
	n, err := g.rc.Read(p)
	if n > 0 {
		g.w.progress()
	}
	if err != nil && err != io.EOF {
		return n, g.t.interrupted(g.ctx, err, true)
	}
	return n, err
}

func (g *guardedBody) Close() error {
	g.w.stop()
	return g.rc.Close()
}

func isHTML(contentType string, body []byte) bool {
	if strings.Contains(strings.ToLower(contentType), "text/html") {
		return true
	}
	head := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// EndedEarly is the error of a stream that ended before the answer was
// complete; another attempt may get it whole.
func (t *Transport) EndedEarly() error {
	e := t.fail(llm.KindStream, 0, "stream ended before the answer was complete: try again", nil)
	e.Retryable = true
	return e
}

// ReadError explains a failure to read a stream: the body's own errors
// are already *llm.Error values; anything else is a broken stream.
func (t *Transport) ReadError(err error) error {
	var e *llm.Error
	if errors.As(err, &e) {
		return err
	}
	return t.fail(llm.KindBadResponse, 0, "unreadable stream: "+cleanErr(err), err)
}

// Undecodable explains a stream event that is not the JSON it should be.
func (t *Transport) Undecodable(data []byte, err error) error {
	return t.fail(llm.KindBadResponse, 0, fmt.Sprintf("undecodable stream event %q: %s", t.clean(string(data[:min(len(data), 60)])), cleanErr(err)), err)
}

// For is the transport of a client of protocol: cfg resolved (see
// [llm.Config.Resolve]) and its provider checked to speak protocol.
func For(cfg llm.Config, protocol string) (Transport, error) {
	cfg, err := cfg.Resolve()
	if err != nil {
		return Transport{}, err
	}
	if p, _ := llm.PresetFor(cfg.Provider); p.Protocol != protocol {
		return Transport{}, fmt.Errorf("%s: provider %s speaks %s", protocol, cfg.Provider, p.Protocol)
	}
	return Transport{Config: cfg}, nil
}

// Stream posts body to url with header, as many times as Do retries it,
// and reads each answer with read into a new Builder that reports to
// onEvent: the one request loop of every protocol. On failure it returns
// what the last attempt had assembled, and the error.
func (t *Transport) Stream(ctx context.Context, onEvent func(llm.Event), url string, header http.Header, body []byte,
	read func(*http.Response, *Builder) (llm.Response, error)) (llm.Response, error) {
	var b *Builder
	var resp llm.Response
	err := t.Do(ctx, onEvent, func(ctx context.Context) (bool, error) {
		b = NewBuilder(onEvent)
		r, err := t.Post(ctx, url, header, body)
		if err != nil {
			return false, err
		}
		defer r.Body.Close()
		resp, err = read(r, b)
		return b.Committed(), err
	})
	if err != nil {
		return b.Partial(), err
	}
	return resp, nil
}
