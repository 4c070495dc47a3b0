// Package client is tai's MCP client (McpClient): it connects to one server
// over stdio or Streamable HTTP, performs the handshake of the protocol
// era, lists and calls tools, and answers the server's pings. Tool failures
// (a result with IsError) and protocol failures (*wire.Error, including
// *wire.HTTPError) stay distinct; local failures are *TimeoutError,
// ErrLost and ErrClosed.
package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tai/internal/mcp/wire"
)

// cancelSendTimeout bounds the notifications/cancelled that follows a
// failed call; the call has already failed, so this only limits the wait.
const cancelSendTimeout = 5 * time.Second

// Options configures Connect.
type Options struct {
	// Transport is Stdio or HTTP.
	Transport Transport
	// ConnectTimeout bounds spawn or dial plus handshake; zero means
	// wire.ConnectTimeout (MCP_CONNECT_TIMEOUT).
	ConnectTimeout time.Duration
	// ConnectCap names ConnectTimeout in errors; empty means
	// MCP_CONNECT_TIMEOUT.
	ConnectCap string
	// CallTimeout bounds each request after the handshake; zero means
	// wire.CallTimeout (MCP_CALL_TIMEOUT).
	CallTimeout time.Duration
	// Era is the era this server spoke last time (a wire.Era's Name), or
	// empty: the verdict the caller remembers, so that a later start costs
	// one round trip. A stale verdict is corrected by probing again.
	Era string
	// Roots, when set, makes tai declare the roots capability and answer
	// roots/list with what it returns (file:// URIs of the workspace).
	Roots func() []wire.Root
	// Notify receives the notifications a server sends of its own accord
	// (notifications/message, the list_changed ones, resources/updated)
	// with their params as sent. It runs on the reading goroutine and
	// must not block. Progress goes to the request it is about instead
	// (WithProgress).
	Notify func(method string, params json.RawMessage)
	// Refused, when set, is told of each request of the server's that
	// tai refused (a method it does not answer, or did not declare), with
	// the error sent back. Pings are answered and not told.
	Refused func(method string, e *wire.Error)
	// LogLevel, when set, is the least severe log level tai asks a
	// server that declared logging for: logging/setLevel after the
	// session-era handshake, _meta on every stateless-era request.
	LogLevel string
	// Ask answers a server's elicitations (when Elicit is set, tai
	// declares elicitation, form and URL) and sampling requests (when
	// Sample is set, tai declares sampling), in either era.
	Ask            Asking
	Elicit, Sample bool
}

// Client is one live connection to an MCP server. Its methods may be called
// from several goroutines at once; requests share the connection.
type Client struct {
	t           transport
	log         *tail
	hs          handshake
	name        string
	callTimeout time.Duration

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[wire.ID]chan reply
	server  wire.InitializeResult
	era     wire.Era
	closed  bool
	// meta is the encoded _meta every request carries in the stateless
	// era; nil in the session era. Set before the handshake returns.
	meta []byte
	// listedUntil is when the last tools/list goes stale by the server's
	// ttlMs; zero when it gave none.
	listedUntil time.Time
	// xh holds the x-mcp-header annotations of the listed tools, in the
	// stateless era over HTTP.
	xh map[string][]paramHeader
	// leftOut names the listed tools dropped for broken annotations, and
	// why; they are never called.
	leftOut map[string]string

	roots    func() []wire.Root
	onNotify func(string, json.RawMessage)
	refused  func(string, *wire.Error)
	logLevel string
	ask      Asking
	elicits  bool
	samples  bool
	holding  int // server questions being answered by a person
	// tasks holds the tasks being polled by id; taskTools names the
	// listed tools that must run as tasks.
	tasks         map[string]chan Task
	taskTools     map[string]bool
	optionalTasks map[string]bool // listed tools that may run as tasks
	// progress holds the long requests in flight by their progress
	// token as JSON; nextToken numbers the tokens.
	progress  map[string]*inflight
	nextToken atomic.Int64
	noted     map[string]bool // kinds of skipped input already noted
	listen    listener

	answers   sync.WaitGroup // goroutines answering the server's requests
	stop      context.CancelFunc
	stopCtx   context.Context
	closeOnce sync.Once
	closeErr  error
}

// reply is what a request waits for: the server's response, or why there
// will be none.
type reply struct {
	m   *wire.Message
	err error
}

// Connect starts the transport and performs the handshake, both within
// opts.ConnectTimeout. On failure nothing is left running, and the error
// quotes the end of the server's stderr when there is one.
func Connect(ctx context.Context, opts Options) (*Client, error) {
	if opts.Transport == nil {
		return nil, errors.New("mcp connect: no transport given")
	}
	connectTimeout := orDefault(opts.ConnectTimeout, wire.ConnectTimeout)
	c := &Client{
		log:         &tail{},
		name:        opts.Transport.String(),
		callTimeout: orDefault(opts.CallTimeout, wire.CallTimeout),
		pending:     map[wire.ID]chan reply{},
		progress:    map[string]*inflight{},
		tasks:       map[string]chan Task{},
		roots:       opts.Roots,
		onNotify:    opts.Notify,
		refused:     opts.Refused,
		logLevel:    opts.LogLevel,
		ask:         opts.Ask,
		elicits:     opts.Elicit,
		samples:     opts.Sample,
	}
	c.stopCtx, c.stop = context.WithCancel(context.Background())
	ctx, cancel := context.WithTimeoutCause(ctx, connectTimeout,
		&TimeoutError{Method: "connect", After: connectTimeout, Cap: cmp.Or(opts.ConnectCap, "MCP_CONNECT_TIMEOUT")})
	defer cancel()
	t, err := opts.Transport.dial(ctx, c, c.log)
	if err != nil {
		c.stop()
		return nil, fmt.Errorf("starting mcp server %s: %w", c.name, err)
	}
	c.t = t
	t.start()
	err = c.negotiate(ctx, opts.Era)
	if err != nil && errors.Is(err, ErrLost) && opts.Era != wire.SessionEra.Name && !isHTTP(opts.Transport) {
		// Some session-era servers exit on any request before initialize:
		// start the server once more and initialize at once.
		c.log.note("the server exited on server/discover; starting it again to initialize")
		c.t.close()
		if c.t, err = opts.Transport.dial(ctx, c, c.log); err != nil {
			c.stop()
			return nil, fmt.Errorf("starting mcp server %s: %w", c.name, err)
		}
		c.t.start()
		err = c.openWith(ctx, handshakeFor(wire.SessionEra))
	}
	if err != nil {
		c.Close()
		if hint := c.stderrHint(err); !strings.Contains(err.Error(), hint) {
			err = fmt.Errorf("%w%s", err, hint)
		}
		return nil, &HandshakeError{Server: c.name, Err: err}
	}
	c.setLogLevel(ctx)
	return c, nil
}

func isHTTP(t Transport) bool {
	_, ok := t.(HTTP)
	return ok
}

// HandshakeError is a server that was started or reached but did not open
// a conversation: it refused the handshake, answered what tai cannot use,
// went away during it, or timed out.
type HandshakeError struct {
	Server string
	Err    error
}

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("connecting to mcp server %s: %v", e.Server, e.Err)
}

func (e *HandshakeError) Unwrap() error { return e.Err }

// settle records the era and the server's answer once a handshake opened
// the conversation.
func (c *Client) settle(era wire.Era, res wire.InitializeResult, meta []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.era, c.server, c.meta = era, res, meta
}

// Era returns the era the conversation opened in.
func (c *Client) Era() wire.Era {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.era
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Server returns the server's answer to the handshake.
func (c *Client) Server() wire.InitializeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.server
}

// Note adds a line of tai's own to the server's log (Stderr).
func (c *Client) Note(line string) { c.log.note(line) }

// Stderr returns the end of the server's stderr (stdio only) and of tai's
// notes about input it skipped, with control characters replaced.
func (c *Client) Stderr() string { return c.log.String() }

// Close ends the connection: requests in flight fail with ErrClosed, a
// stdio server is shut down (close stdin, wait, terminate, kill its process
// group). Close waits for everything the Client started and may be called
// more than once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.closeErr = c.t.close()
		c.stop()
		c.answers.Wait()
	})
	return c.closeErr
}

// Lost is closed once the connection ends: the server exited or hung up
// (stdio), or the client was closed.
func (c *Client) Lost() <-chan struct{} { return c.t.lost() }

// stderrHint quotes the end of the server's stderr for err, unless err
// already does (a server that exited says so with its stderr).
func (c *Client) stderrHint(err error) string {
	var le *lostError
	if errors.As(err, &le) {
		return ""
	}
	return c.log.quote()
}

// request sends one request and waits for its response, decoding a result
// into out. A JSON-RPC error comes back as *wire.Error.
func (c *Client) request(ctx context.Context, method string, params, out any) error {
	_, err := c.requestID(ctx, method, params, out)
	return err
}

// requestID is request that also returns the id it used, for a later
// notifications/cancelled.
func (c *Client) requestID(ctx context.Context, method string, params, out any) (wire.ID, error) {
	return c.send(ctx, method, params, nil, out)
}

// send is requestID with extra _meta keys (a progress token) beside the
// stateless era's claim.
func (c *Client) send(ctx context.Context, method string, params any, extra map[string]any, out any) (wire.ID, error) {
	id := wire.Int64ID(c.nextID.Add(1))
	m, err := wire.NewRequest(id, method, params)
	if err != nil {
		return id, fmt.Errorf("%s: encoding params: %w", method, err)
	}
	c.mu.Lock()
	meta, level := c.meta, c.logLevel
	c.mu.Unlock()
	if method == wire.MethodDiscover {
		meta = nil
	}
	if meta != nil && level != "" && wire.Declared(c.Server().Capabilities.Logging) {
		extra = withKey(extra, wire.MetaLogLevel, level)
	}
	if meta, err = mergeMeta(meta, extra); err != nil {
		return id, fmt.Errorf("%s: %w", method, err)
	}
	if meta != nil {
		if m.Params, err = wire.WithMeta(m.Params, meta); err != nil {
			return id, fmt.Errorf("%s: %w", method, err)
		}
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return id, fmt.Errorf("%s: %w", method, ErrClosed)
	}
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	if err := c.t.send(ctx, m); err != nil {
		select {
		case r := <-ch: // answered although the rest of the reply failed
			return id, finish(method, r, out)
		case <-c.t.lost(): // the send failed because the connection ended
			return id, c.failure(ctx, method, c.t.cause())
		default:
		}
		return id, c.failure(ctx, method, err)
	}
	select {
	case r := <-ch:
		return id, finish(method, r, out)
	case <-ctx.Done():
		return id, c.failure(ctx, method, ctx.Err())
	case <-c.t.lost():
		select {
		case r := <-ch:
			return id, finish(method, r, out)
		default:
		}
		return id, c.failure(ctx, method, c.t.cause())
	}
}

// failure names why a request got no answer: the context's cause when it
// ended (a *TimeoutError for tai's own caps), else err.
func (c *Client) failure(ctx context.Context, method string, err error) error {
	if ctx.Err() != nil {
		err = context.Cause(ctx)
		var te *TimeoutError
		if errors.As(err, &te) {
			return err
		}
	}
	return fmt.Errorf("%s: %w", method, err)
}

func finish(method string, r reply, out any) error {
	if r.err != nil {
		return fmt.Errorf("%s: %w", method, r.err)
	}
	if r.m.Error != nil {
		return r.m.Error
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.m.Result, out); err != nil {
		return fmt.Errorf("%s: reading the result: %w", method, err)
	}
	return nil
}

// notify sends a notification.
func (c *Client) notify(ctx context.Context, method string, params any) error {
	m, err := wire.NewNotification(method, params)
	if err != nil {
		return fmt.Errorf("%s: encoding params: %w", method, err)
	}
	if err := c.t.send(ctx, m); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// withTimeout bounds one request by the call timeout.
func (c *Client) withTimeout(ctx context.Context, method string) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, c.callTimeout,
		&TimeoutError{Method: method, After: c.callTimeout, Cap: "MCP_CALL_TIMEOUT"})
}

func withKey(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for mk, mv := range m {
		out[mk] = mv
	}
	out[k] = v
	return out
}

// mergeMeta adds extra's keys to the encoded _meta object meta (nil for
// none) and returns the encoding, or nil when both are empty.
func mergeMeta(meta []byte, extra map[string]any) ([]byte, error) {
	if len(extra) == 0 {
		return meta, nil
	}
	all := map[string]json.RawMessage{}
	if meta != nil {
		if err := json.Unmarshal(meta, &all); err != nil {
			return nil, err
		}
	}
	for k, v := range extra {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		all[k] = b
	}
	return json.Marshal(all)
}
