package bridge

import (
	"context"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
)

// List changes: a server's notifications/{tools,prompts,resources}/
// list_changed mark that list of its connection stale. The tools are
// listed again in the background at once (at most one re-listing in
// flight, however many notifications come) and before the next call if
// that has not finished, through relistIfStale and the same pin check as
// a start; prompts and resources are listed again by whoever reads them
// (conn.stale, conn.settle).

// listKinds are the lists a server may say changed, by notification.
var listKinds = map[string]string{
	wire.MethodToolsListChanged:     "tools",
	wire.MethodPromptsListChanged:   "prompts",
	wire.MethodResourcesListChanged: "resources",
}

// listChanged marks a list of server's live connection stale, and starts
// re-listing its tools.
func (b *Bridge) listChanged(server, kind string) {
	b.mu.Lock()
	c := b.conns[server]
	b.mu.Unlock()
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.staleKinds == nil {
		c.staleKinds = map[string]bool{}
	}
	c.staleKinds[kind] = true
	start := kind == "tools" && !c.relisting
	if start {
		c.relisting = true
	}
	c.mu.Unlock()
	if start {
		go b.relistInBackground(server, c)
	}
}

// relistInBackground re-lists server's tools until no change came in
// while it listed, so the next step's offer already holds the new list.
func (b *Bridge) relistInBackground(server string, c *conn) {
	<-c.ready
	for c.err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), b.callTimeout())
		b.relistIfStale(ctx, server, c)
		cancel()
		if !c.stale("tools") {
			break
		}
	}
	c.mu.Lock()
	c.relisting = false
	c.mu.Unlock()
}

// stale reports whether the server said its list of kind ("tools",
// "prompts", "resources") changed since tai last listed it.
func (c *conn) stale(kind string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.staleKinds[kind]
}

// settle marks the list of kind as listed now, and reports whether it
// was stale.
func (c *conn) settle(kind string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	was := c.staleKinds[kind]
	delete(c.staleKinds, kind)
	return was
}

// listen opens the channel on which a server tells of changed lists
// outside any request (the stateless era's subscriptions/listen, the
// session era's GET stream over HTTP), for each list it said it would
// tell of (listChanged). In the session era it opens it too when tai
// answers a server's own questions (asks): such a server may ask outside
// any request of tai's, and over HTTP only the GET stream carries that.
// It reports whether it opened a session-era stream.
func listen(c *client.Client, asks bool) bool {
	f := listFilter(c)
	session := c.Era().Name != wire.StatelessEra.Name
	if f.ToolsListChanged || f.PromptsListChanged || f.ResourcesListChanged || (asks && session) {
		c.Listen(f)
		return session
	}
	return false
}

// listFilter asks for every list change the server said it would tell of.
func listFilter(c *client.Client) wire.SubscriptionFilter {
	caps := c.Server().Capabilities
	return wire.SubscriptionFilter{ToolsListChanged: caps.ListChanged("tools"),
		PromptsListChanged: caps.ListChanged("prompts"), ResourcesListChanged: caps.ListChanged("resources")}
}
