package bridge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/vault"
)

// conn is a live connection to one server, shared by every call to it and
// closed after it has been idle for the bridge's Idle duration.
type conn struct {
	ready chan struct{} // closed once c or err is set
	c     *client.Client
	err   error

	mu    sync.Mutex
	busy  int
	timer *time.Timer

	relist sync.Mutex // one re-listing at a time

	// Guarded by mu: the lists the server said changed since tai last
	// listed them ("tools", "prompts", "resources"), whether a re-listing
	// of the tools runs in the background, and the last drift notice shown.
	staleKinds map[string]bool
	relisting  bool
	noticed    string
}

// relistIfStale lists the tools of an open connection again when the
// server said they changed (notifications/tools/list_changed) or once its
// ttlMs for the list has passed, and runs the drift check on the new list
// as a new connection does: a tool that appeared is withheld until
// approved, and the person is told. A failed re-listing keeps the cached
// list (the specification lets a client serve a stale list when
// re-fetching fails) and is noted in the server's log.
func (b *Bridge) relistIfStale(ctx context.Context, server string, c *conn) {
	c.relist.Lock()
	defer c.relist.Unlock()
	changed := c.settle("tools")
	until, ok := c.c.ListedUntil()
	if !changed && (!ok || time.Now().Before(until)) {
		return
	}
	listed, err := c.c.ListTools(ctx)
	var d Drift
	if err == nil {
		d, err = b.refresh(ctx, server, listed)
	}
	if err != nil {
		c.c.Note("re-listing the tools failed; the cached list stays: " + err.Error())
		return
	}
	b.noticeOnce(c, driftNotice(server, d))
}

// noticeOnce shows a drift notice of c, unless it is the one shown
// last: a server re-listed often says once what it withholds.
func (b *Bridge) noticeOnce(c *conn, n string) {
	c.mu.Lock()
	repeated := n == c.noticed
	c.noticed = n
	c.mu.Unlock()
	if !repeated {
		b.notice(n)
	}
}

func (c *conn) close() {
	<-c.ready
	if c.c != nil {
		c.c.Close()
	}
}

// client returns a live client for server, connecting on first use. Only
// one connection attempt runs per server at a time.
func (b *Bridge) client(ctx context.Context, server string) (*conn, error) {
	b.mu.Lock()
	if b.conns == nil {
		b.conns = map[string]*conn{}
	}
	if c, ok := b.conns[server]; ok {
		b.mu.Unlock()
		<-c.ready
		if c.err != nil {
			return nil, c.err
		}
		b.relistIfStale(ctx, server, c)
		return c, nil
	}
	c := &conn{ready: make(chan struct{})}
	b.conns[server] = c
	b.mu.Unlock()

	var d Drift
	c.c, _, d, c.err = b.dial(ctx, server)
	close(c.ready)
	b.noticeOnce(c, driftNotice(server, d))
	if c.err != nil {
		b.drop(server, c)
		return nil, c.err
	}
	if listen(c.c, b.Elicit != nil || b.Sample != nil) {
		b.streams.await(ctx, server)
	}
	return c, nil
}

// notice tells the person n, shown visibly, unless it is empty.
func (b *Bridge) notice(n string) {
	if n != "" && b.Notice != nil {
		b.Notice(textsafe.Visible(n))
	}
}

// drop forgets a connection (after a failure or when idle) and closes it.
func (b *Bridge) drop(server string, c *conn) {
	b.mu.Lock()
	if b.conns[server] == c {
		delete(b.conns, server)
	}
	b.mu.Unlock()
	c.close()
}

// acquire marks a call in flight; release restarts the idle timer.
func (c *conn) acquire() {
	c.mu.Lock()
	c.busy++
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Unlock()
}

func (b *Bridge) release(server string, c *conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy--
	if c.busy > 0 {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	c.timer = time.AfterFunc(b.idle(), func() {
		c.mu.Lock()
		idle := c.busy == 0
		c.mu.Unlock()
		if idle {
			b.drop(server, c)
		}
	})
}

// dial expands the stored entry, re-asks consent when what would run has
// changed, connects, and refreshes the tool cache against the pins. A list
// past a listing cap refreshes nothing and fails the connection.
func (b *Bridge) dial(ctx context.Context, server string) (*client.Client, []wire.Tool, Drift, error) {
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return nil, nil, Drift{}, err
	}
	x, err := b.expand(ctx, EntryOf(srv))
	if err != nil {
		return nil, nil, Drift{}, err
	}
	if h := LaunchHash(x.Entry); h != srv.ConsentedHash {
		if err := b.reconsent(ctx, srv, x, h); err != nil {
			return nil, nil, Drift{}, err
		}
	}
	t := b.transport(x)
	if h, ok := t.(client.HTTP); ok {
		var open <-chan struct{}
		h.HTTPClient, open = watchStream(h.HTTPClient)
		b.streams.set(server, open)
		t = h
	}
	opts := b.serverOptions(t, server)
	opts.Era = srv.Era
	c, err := client.Connect(ctx, opts)
	if err != nil {
		return nil, nil, Drift{}, fmt.Errorf("%s MCP server %s: %w", startVerb(err), server, loginHint(server, err))
	}
	if era := c.Era().Name; era != srv.Era {
		// Best effort: a verdict not written only costs a probe next time.
		_ = b.Store.SetMCPEra(ctx, server, era)
	}
	listed, err := listTools(ctx, c)
	var ce *client.ListCapError
	if errors.As(err, &ce) {
		c.Close()
		return nil, nil, Drift{}, fmt.Errorf("MCP server %s is not used: %w; its cached tools and pins stay as they were", server, ce)
	}
	if err != nil {
		c.Close()
		return nil, nil, Drift{}, fmt.Errorf("listing the tools of MCP server %s: %w", server, loginHint(server, err))
	}
	d, err := b.refresh(ctx, server, listed)
	if err != nil {
		c.Close()
		return nil, nil, Drift{}, err
	}
	if d.Prompts, err = b.listPrompts(ctx, server, c); err != nil {
		c.Note("listing the prompts failed; the cached prompts stay as they were: " + err.Error())
	}
	return c, listed, d, nil
}

// serverOptions are the client options of a start of a stored server:
// its own start and call limits, else the caps.
func (b *Bridge) serverOptions(t client.Transport, server string) client.Options {
	connect, connectCap := b.startLimit(server)
	return b.options(t, server, connect, connectCap)
}

// options are the client options of every connection to server (empty
// while it is being registered): the start limit given, the server's own
// call limit, the workspace as roots, the log level, and its
// notifications to heard.
func (b *Bridge) options(t client.Transport, server string, connect time.Duration, connectCap string) client.Options {
	return client.Options{Transport: t, ConnectTimeout: connect, ConnectCap: connectCap, CallTimeout: b.callLimit(server),
		Roots: b.rootsFor(server), LogLevel: b.logLevel(server),
		Notify: func(method string, params json.RawMessage) {
			if server != "" {
				b.heard(server, method, params)
			}
		},
		Refused: func(method string, e *wire.Error) {
			if b.Store != nil {
				_ = b.Store.Audit(context.Background(), vault.AuditEntry{Profile: b.Profile, Kind: vault.KindMCPRefused,
					Subject: server + "/" + wire.Printable(method, 80), Outcome: vault.OutcomeRefused})
			}
		},
		Elicit: b.Elicit != nil, Sample: b.Sample != nil,
		Ask: func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			ask := b.Sample
			if method == client.MethodElicit && b.Elicit != nil {
				ask = b.elicited
			}
			if ask == nil || server == "" {
				return nil, &wire.Error{Code: wire.CodeMethodNotFound, Message: "tai does not answer " + wire.Printable(method, 60) + " here"}
			}
			return ask(ctx, server, params)
		}}
}

// listTools lists a server's tools, or none when it declared no tools
// capability (a server of prompts or resources only).
func listTools(ctx context.Context, c *client.Client) ([]wire.Tool, error) {
	if !wire.Declared(c.Server().Capabilities.Tools) {
		return nil, nil
	}
	return c.ListTools(ctx)
}

// startVerb says what failed: starting the server (it could not be
// spawned or dialled, or it exited), or, when it runs but did not open a
// conversation, connecting to it.
func startVerb(err error) string {
	var he *client.HandshakeError
	if errors.As(err, &he) && !errors.Is(err, client.ErrLost) {
		return "connecting to"
	}
	return "starting"
}

// expand substitutes ${VAR} references at use time and registers the
// substituted secrets for redaction. Unresolved names refuse the start.
// sources are where references expand from: the environment, the
// profile's vault, the home and working directories.
func (b *Bridge) sources(ctx context.Context) config.Sources {
	home, _ := os.UserHomeDir()
	if b.Home != "" {
		home = b.Home
	}
	return config.Sources{
		Env:        b.lookupEnv,
		Home:       home,
		Dir:        b.Dir,
		SecretName: vault.ClampSecretName,
		Public:     client.Inherits,
		Secret: func(name string) (string, bool, error) {
			v, err := b.Store.Secret(ctx, b.Profile, vault.ClampSecretName(name))
			if vault.IsNotFound(err) {
				return "", false, nil
			}
			return v, err == nil, err
		},
	}
}

func (b *Bridge) expand(ctx context.Context, e config.Entry) (config.Expanded, error) {
	x, err := config.ExpandVars(e, b.sources(ctx))
	if err == nil && b.AllowServer != nil {
		err = b.AllowServer(x.Entry.Command, x.Entry.Args, x.Entry.URL)
	}
	if err != nil {
		return x, err
	}
	for name, v := range x.Secrets {
		b.Store.AddKnown(name, v)
	}
	for k, v := range x.Entry.Headers {
		if strings.EqualFold(k, "authorization") {
			b.Store.AddKnown(k, strings.TrimSpace(strings.TrimPrefix(v, "Bearer ")))
		}
	}
	return x, x.Err()
}

// transport is how to reach x: a stdio command, or an HTTP URL whose
// requests carry the profile's OAuth login unless the entry sends its own
// Authorization header. Errors name it as its consent screen did, with
// substituted values as [env:NAME] or [secret:NAME].
func (b *Bridge) transport(x config.Expanded) client.Transport {
	if b.Transport != nil {
		if t := b.Transport(x.Entry); t != nil {
			return t
		}
	}
	e, hide := x.Entry, newHider(x)
	if e.Transport == config.Stdio {
		return client.Stdio{Command: e.Command, Args: e.Args, Env: e.Env, Dir: e.Cwd, Label: hide.all(argv(e)), Confine: b.confineServer(e.Name, e)}
	}
	hc := b.httpClient()
	if !hasAuthHeader(e.Headers) {
		hc = &http.Client{Transport: &oauth.Transport{Base: hc.Transport, Tokens: b.tokensAt(e.Name, e.URL)}}
	}
	return client.HTTP{URL: e.URL, Headers: e.Headers, HTTPClient: hc, Label: hide.field("url", e.URL)}
}

// ErrNotConsented refuses a server whose launch changed without approval.
var ErrNotConsented = errors.New("not approved")

// reconsent shows a changed launch again before anything runs.
func (b *Bridge) reconsent(ctx context.Context, srv vault.MCPServer, x config.Expanded, hash string) error {
	what := "the command"
	if srv.Transport == config.HTTP {
		what = "the URL"
	}
	if b.Confirm == nil || unasked(ctx) {
		return fmt.Errorf("MCP server %s: %s it would run changed since it was approved; approve it again with `tai mcp add %s` in a terminal: %w",
			srv.Name, what, srv.Name, ErrNotConsented)
	}
	c := Describe(x, "changed since you approved it")
	ok, err := b.Confirm(ctx, c)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("MCP server %s: %s changed and was not approved: %w", srv.Name, what, ErrNotConsented)
	}
	return b.Store.SetMCPConsentedHash(ctx, srv.Name, hash)
}

// LaunchHash identifies what a person consents to: for a command, the argv,
// working directory and env names with values; for a URL, the URL and
// header names with values. Any change shows the consent screen again.
func LaunchHash(e config.Entry) string {
	var parts []string
	if e.Transport == config.Stdio {
		parts = append([]string{"stdio", e.Command, e.Cwd}, e.Args...)
		parts = append(parts, sortedPairs(e.Env)...)
	} else {
		parts = append([]string{"http", e.URL}, sortedPairs(e.Headers)...)
	}
	b, _ := json.Marshal(parts)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// EntryOf turns a stored server back into the entry it was registered as.
func EntryOf(s vault.MCPServer) config.Entry {
	return config.Entry{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args, Env: nilIfEmpty(s.Env),
		URL: s.URL, Headers: nilIfEmpty(s.Headers), Cwd: s.Cwd, Allow: s.Allow, Deny: s.Deny, Source: s.Source}
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}
