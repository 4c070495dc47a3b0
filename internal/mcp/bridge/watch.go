package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// Following a resource: a person asks to be told when a resource of a
// server changes (tai mcp read --follow, the REPL's /watch). In the
// session era tai sends resources/subscribe and, when the last follower
// of that resource stops, resources/unsubscribe; in the stateless era the
// resource joins the filter of the connection's subscriptions/listen
// stream, which is opened again with it. Either way the server's
// notifications/resources/updated reach the followers of that resource,
// and of any resource below it (the specification lets a server name a
// sub-resource of the one subscribed to). The connection is held open
// while anything is followed on it.

// Watch is one resource being followed.
type Watch struct {
	// Changed receives once each time the server says the resource
	// changed; changes that come while one is waiting to be received are
	// one.
	Changed <-chan struct{}
	// Lost is closed when the connection to the server ends: nothing
	// more will be told.
	Lost <-chan struct{}

	stop func()
}

// Stop ends the watch; further calls do nothing.
func (w *Watch) Stop() { w.stop() }

// watchBook holds the followers of each server's resources.
type watchBook struct {
	mu sync.Mutex
	by map[string][]*watcher // by server
}

type watcher struct {
	uri     string
	changed chan struct{}
}

// add registers a follower of uri of server, and reports whether it is
// the first of that uri.
func (w *watchBook) add(server string, f *watcher) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.by == nil {
		w.by = map[string][]*watcher{}
	}
	first := !slices.ContainsFunc(w.by[server], func(o *watcher) bool { return o.uri == f.uri })
	w.by[server] = append(w.by[server], f)
	return first
}

// remove forgets a follower, and reports whether it was the last of its
// uri.
func (w *watchBook) remove(server string, f *watcher) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.by[server] = slices.DeleteFunc(w.by[server], func(o *watcher) bool { return o == f })
	if len(w.by[server]) == 0 {
		delete(w.by, server)
	}
	return !slices.ContainsFunc(w.by[server], func(o *watcher) bool { return o.uri == f.uri })
}

// uris are the distinct resources of server being followed, sorted.
func (w *watchBook) uris(server string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, f := range w.by[server] {
		out = append(out, f.uri)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// updated tells the followers of the resource a server says changed.
func (w *watchBook) updated(server string, params json.RawMessage) {
	var p wire.ResourceParams
	if json.Unmarshal(params, &p) != nil || p.URI == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, f := range w.by[server] {
		if within(p.URI, f.uri) {
			select {
			case f.changed <- struct{}{}:
			default: // one is already waiting
			}
		}
	}
}

// within reports whether uri is the followed resource or below it: the
// same, or followed then a '/', '?' or '#' (or followed ends in '/').
func within(uri, followed string) bool {
	rest, ok := strings.CutPrefix(uri, followed)
	if !ok {
		return false
	}
	return rest == "" || strings.HasSuffix(followed, "/") || strings.ContainsAny(rest[:1], "/?#")
}

// Watch follows resource uri of server (started if it is not running):
// see Watch. A server that declared no resources.subscribe is refused in
// one line, as is a resource the profile withholds.
func (b *Bridge) Watch(ctx context.Context, server, uri string) (*Watch, error) {
	if err := b.resourceAllowed(server, uri); err != nil {
		return nil, err
	}
	if err := b.reachable(ctx, server); err != nil {
		return nil, err
	}
	c, err := b.client(ctx, server)
	if err != nil {
		return nil, err
	}
	if caps := c.c.Server().Capabilities; caps.Resources == nil {
		return nil, &UnavailableError{Msg: fmt.Sprintf("MCP server %s offers no resources (it declared no resources capability)", server)}
	} else if !caps.Subscribes() {
		return nil, &UnavailableError{Msg: fmt.Sprintf("MCP server %s does not tell of changed resources (it declared no resources.subscribe); read %s again to see it now",
			server, printable(uri, 200))}
	}
	c.acquire()
	f := &watcher{uri: uri, changed: make(chan struct{}, 1)}
	if b.watches.add(server, f) {
		if err := b.subscribe(ctx, server, c, uri); err != nil {
			b.watches.remove(server, f)
			b.release(server, c)
			return nil, err
		}
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			if b.watches.remove(server, f) {
				ctx, cancel := context.WithTimeout(context.Background(), min(b.callTimeout(), 10*time.Second))
				b.unsubscribe(ctx, server, c, uri)
				cancel()
			}
			b.release(server, c)
		})
	}
	return &Watch{Changed: f.changed, Lost: c.c.Lost(), stop: stop}, nil
}

// subscribe asks server to tell of changes to uri.
func (b *Bridge) subscribe(ctx context.Context, server string, c *conn, uri string) error {
	if c.c.Era().Name == wire.StatelessEra.Name {
		b.relisten(server, c)
		return nil
	}
	if err := c.c.Subscribe(ctx, uri); err != nil {
		return &protocolError{fmt.Errorf("subscribing to %s of MCP server %s: %w", printable(uri, 200), server, loginHint(server, err))}
	}
	return nil
}

// unsubscribe tells server tai no longer follows uri; a failure is noted
// in the server's log, as nothing waits on it.
func (b *Bridge) unsubscribe(ctx context.Context, server string, c *conn, uri string) {
	if c.c.Era().Name == wire.StatelessEra.Name {
		b.relisten(server, c)
		return
	}
	if err := c.c.Unsubscribe(ctx, uri); err != nil {
		c.c.Note("unsubscribing from " + printable(uri, 200) + " failed: " + err.Error())
	}
}

// relisten opens a stateless-era connection's listen stream again with
// the list changes it asks for and the resources followed now.
func (b *Bridge) relisten(server string, c *conn) {
	f := listFilter(c.c)
	f.ResourceSubscriptions = b.watches.uris(server)
	if !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(f.ResourceSubscriptions) == 0 {
		c.c.Unlisten()
		return
	}
	c.c.Listen(f)
}
