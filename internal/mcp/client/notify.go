package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/sse"
)

// What a server says of its own accord: progress about tai's requests,
// log lines, list changes and resource updates, and its requests of tai
// (roots/list). Progress goes to the request it is about; everything else
// to Options.Notify.

// progressKey carries a request's progress callback in its context.
type progressKey struct{}

// WithProgress returns ctx whose long requests (CallTool, ReadResource,
// GetPrompt) report each notifications/progress to fn. fn runs on the
// connection's reading goroutine and must not block.
func WithProgress(ctx context.Context, fn func(wire.ProgressParams)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// inflight is a long request waiting for its answer: where its progress
// goes, and how it pushes its idle deadline back.
type inflight struct {
	report func(wire.ProgressParams)
	touch  func() // pushes the idle limit back (restarts a held timer)
	hold   func() // stops the idle timer while a person answers the server
}

// longRequest sends a request that may take long: it carries a progress
// token, and MCP_CALL_TIMEOUT bounds the silence between the server's
// progress notifications rather than the whole request, which
// MCP_CALL_MAX_TOTAL bounds. When it gives up it tells the server.
func (c *Client) longRequest(ctx context.Context, method, subject string, params, out any) error {
	what := method + " " + wire.Printable(subject, 64)
	report, _ := ctx.Value(progressKey{}).(func(wire.ProgressParams))
	ctx, idle := c.idleTimeout(ctx, what)
	defer idle.stop()
	token := "tai-" + strconv.FormatInt(c.nextToken.Add(1), 10)
	key := strconv.Quote(token)
	c.mu.Lock()
	c.progress[key] = &inflight{report: report, touch: idle.touch, hold: idle.hold}
	if c.holding > 0 {
		idle.hold()
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.progress, key)
		c.mu.Unlock()
	}()
	// A stateless-era server may answer input_required: tai answers its
	// questions and sends the request again, with a new id, at most
	// maxInputRounds times.
	for round := 0; ; round++ {
		var raw json.RawMessage
		id, err := c.send(ctx, method, params, map[string]any{wire.MetaProgressToken: token}, &raw)
		if err != nil {
			if ctx.Err() != nil {
				c.cancelRequest(id, err)
			}
			return err
		}
		retry, err := c.answerInput(ctx, method, params, raw)
		if err != nil {
			return err
		}
		if retry == nil {
			if err := json.Unmarshal(raw, out); err != nil {
				return fmt.Errorf("%s: reading the result: %w", method, err)
			}
			return nil
		}
		if round+1 >= maxInputRounds {
			return &InputError{Method: method, Why: fmt.Sprintf("it asked again after %d rounds", maxInputRounds)}
		}
		params = retry
		idle.touch()
	}
}

// idle is the idle limit of one long request.
type idle struct {
	touch, hold, stop func()
}

// idleTimeout bounds a long request: it fails with a *TimeoutError once
// the call timeout passes without touch being called, or once
// MCP_CALL_MAX_TOTAL passed since it began, whichever comes first.
func (c *Client) idleTimeout(ctx context.Context, what string) (context.Context, idle) {
	ctx, cancelTotal := context.WithTimeoutCause(ctx, wire.CallMaxTotal,
		&TimeoutError{Method: what, After: wire.CallMaxTotal, Cap: "MCP_CALL_MAX_TOTAL"})
	ctx, cancel := context.WithCancelCause(ctx)
	limit := c.callTimeout
	timer := time.AfterFunc(limit, func() {
		cancel(&TimeoutError{Method: what, After: limit, Cap: "MCP_CALL_TIMEOUT"})
	})
	return ctx, idle{
		touch: func() { timer.Reset(limit) },
		hold:  func() { timer.Stop() },
		stop: func() {
			timer.Stop()
			cancel(nil)
			cancelTotal()
		},
	}
}

// notified takes one notification from the server.
func (c *Client) notified(m *wire.Message) {
	switch m.Method {
	case wire.MethodProgress:
		var p wire.ProgressParams
		if json.Unmarshal(m.Params, &p) != nil {
			c.log.note("skipped a notifications/progress that does not parse")
			return
		}
		c.mu.Lock()
		f := c.progress[string(bytes.TrimSpace(p.ProgressToken))]
		c.mu.Unlock()
		if f == nil {
			c.noteOnce("progress", "skipped notifications/progress for a token tai did not give (or a request already answered)")
			return
		}
		f.touch()
		if f.report != nil {
			p.Message = wire.Printable(p.Message, 200)
			f.report(p)
		}
	case MethodTaskStatus:
		c.taskStatus(m.Params)
	case wire.MethodCancelled, wire.MethodListenAcknowledged:
	default:
		if c.onNotify != nil {
			c.onNotify(m.Method, m.Params)
		}
	}
}

// noteOnce notes a kind of skipped input the first time it comes, so that a
// flood of it leaves one line.
func (c *Client) noteOnce(kind, line string) {
	c.mu.Lock()
	seen := c.noted[kind]
	if c.noted == nil {
		c.noted = map[string]bool{}
	}
	c.noted[kind] = true
	c.mu.Unlock()
	if !seen {
		c.log.note(line)
	}
}

// capabilities is what tai declares of itself as a client: roots, when
// the caller gave them.
func (c *Client) capabilities() json.RawMessage {
	caps := map[string]any{}
	if c.roots != nil {
		caps["roots"] = map[string]any{"listChanged": true}
	}
	if c.ask != nil && c.elicits {
		caps["elicitation"] = map[string]any{"form": map[string]any{}, "url": map[string]any{}}
	}
	if c.ask != nil && c.samples {
		caps["sampling"] = map[string]any{}
	}
	b, _ := json.Marshal(caps) // maps of maps always encode
	return b
}

// statelessCapabilities are the capabilities tai's stateless-era
// requests declare: capabilities, and the Tasks extension (tasks2.go).
func (c *Client) statelessCapabilities() json.RawMessage {
	var caps map[string]any
	_ = json.Unmarshal(c.capabilities(), &caps)
	caps["extensions"] = map[string]any{TasksExtension: map[string]any{}}
	b, _ := json.Marshal(caps)
	return b
}

// listRoots answers the server's roots/list.
func (c *Client) listRoots() (any, *wire.Error) {
	if c.roots == nil {
		return nil, &wire.Error{Code: wire.CodeMethodNotFound, Message: "method not found: " + wire.MethodRootsList}
	}
	roots := c.roots()
	if roots == nil {
		roots = []wire.Root{}
	}
	return wire.ListRootsResult{Roots: roots}, nil
}

// RootsChanged tells the server the workspace changed, in the session era
// and only when tai declared roots; a stateless-era server asks again on
// its own.
func (c *Client) RootsChanged(ctx context.Context) error {
	if c.roots == nil || c.Era().Name != wire.SessionEra.Name {
		return nil
	}
	return c.notify(ctx, wire.MethodRootsListChanged, nil)
}

// setLogLevel asks a session-era server that declared logging for log
// lines at c.logLevel and above. In the stateless era the level rides
// every request's _meta instead. A refusal is noted, never fatal.
func (c *Client) setLogLevel(ctx context.Context) {
	if c.logLevel == "" || c.Era().Name != wire.SessionEra.Name || c.needs("logging", wire.MethodSetLevel) != nil {
		return
	}
	ctx, cancel := c.withTimeout(ctx, wire.MethodSetLevel)
	defer cancel()
	if err := c.request(ctx, wire.MethodSetLevel, wire.SetLevelParams{Level: c.logLevel}, nil); err != nil {
		c.log.note("logging/setLevel " + c.logLevel + " was refused: " + err.Error())
	}
}

// listener holds the running listen stream, if any.
type listener struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// Listen opens the channel on which a server tells of list changes and
// resource updates outside any request, hearing what filter asks: in the
// stateless era a subscriptions/listen request whose answer stays open;
// in the session era over HTTP the GET event stream (on stdio every
// message shares the one channel, so nothing needs opening). A second
// Listen replaces the first. It returns at once; the stream ends with
// Close, and a failure is noted in the server's log.
func (c *Client) Listen(filter wire.SubscriptionFilter) {
	c.listen.mu.Lock()
	defer c.listen.mu.Unlock()
	c.unlisten()
	h, isHTTP := c.t.(*httpTransport)
	stateless := c.Era().Name == wire.StatelessEra.Name
	if !stateless && !isHTTP {
		return
	}
	ctx, cancel := context.WithCancel(c.stopCtx)
	done := make(chan struct{})
	c.listen.cancel, c.listen.done = cancel, done
	go func() {
		defer close(done)
		var err error
		if stateless {
			err = c.request(ctx, wire.MethodListen, wire.ListenParams{Notifications: filter}, nil)
		} else {
			err = h.listenGET(ctx)
		}
		if err != nil && ctx.Err() == nil && !errors.Is(err, errNoStream) {
			c.log.note("the listen stream ended: " + err.Error())
		}
	}()
}

// Unlisten closes the stream Listen opened, if any.
func (c *Client) Unlisten() {
	c.listen.mu.Lock()
	defer c.listen.mu.Unlock()
	c.unlisten()
}

// unlisten closes the listen stream; c.listen.mu is held.
func (c *Client) unlisten() {
	if c.listen.cancel != nil {
		c.listen.cancel()
		<-c.listen.done
		c.listen.cancel = nil
	}
}

// errNoStream is a server that offers no GET event stream (405).
var errNoStream = errors.New("the server offers no event stream on GET")

// listenGET reads the session's GET event stream until it ends: the
// session era's channel for what a server sends outside a request.
func (t *httpTransport) listenGET(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(t.closed, cancel)()
	req, err := t.eventStreamRequest(ctx)
	if err != nil {
		return err
	}
	t.mu.Lock()
	session, version := t.session, t.version
	t.mu.Unlock()
	if session != "" {
		req.Header.Set(headerSession, session)
	}
	if version != "" {
		req.Header.Set(headerVersion, version)
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return unwrapURLError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusMethodNotAllowed {
		return errNoStream
	}
	if resp.StatusCode != http.StatusOK || mediaType(resp) != "text/event-stream" {
		return fmt.Errorf("GET answered http %d %s", resp.StatusCode, wire.Printable(resp.Header.Get("Content-Type"), 60))
	}
	events := sse.NewReader(resp.Body, wire.HTTPMaxBody)
	for {
		ev, err := events.Next()
		if err != nil {
			return err
		}
		if (ev.Name != "" && ev.Name != "message") || len(bytes.TrimSpace(ev.Data)) == 0 {
			continue
		}
		m, err := wire.Decode(ev.Data)
		if err != nil {
			t.peer.reject(m, err)
			continue
		}
		t.peer.deliver(m)
	}
}
