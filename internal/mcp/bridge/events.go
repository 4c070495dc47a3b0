package bridge

import (
	"context"
	"encoding/json"

	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// Event is something a server said of its own accord while connected: a
// log line, a list that changed, a subscribed resource that changed. Its
// text fields are as the server sent them; whoever shows them makes them
// visible (textsafe) and redacts them.
type Event struct {
	Server string
	// Method is the notification's method (wire.MethodLogMessage,
	// wire.MethodToolsListChanged …).
	Method string
	// Params are the notification's params as sent.
	Params json.RawMessage
}

// heard takes a notification from a connected server: a changed list is
// marked stale, a log line kept, a completed URL elicitation ends the
// wait of the call that asked for it, and everything goes to the bridge's
// OnEvent, when set.
func (b *Bridge) heard(server, method string, params json.RawMessage) {
	if method == wire.MethodElicitComplete {
		b.elicitationComplete(server, params)
	}
	if kind, ok := listKinds[method]; ok {
		b.listChanged(server, kind)
	}
	if method == wire.MethodLogMessage {
		b.logged(server, params)
	}
	if method == wire.MethodResourceUpdated {
		b.watches.updated(server, params)
	}
	if b.OnEvent != nil {
		b.OnEvent(Event{Server: server, Method: method, Params: params})
	}
}

// rootsFor is what a server is told of the workspace (roots/list), or nil
// to declare no roots: when the host gives none, or the server's roots
// setting is off.
//
// Each answer is an audit row: kind mcp-roots, the server as subject, the
// digest of the roots told and their count as size.
func (b *Bridge) rootsFor(server string) func() []wire.Root {
	if b.Roots == nil || (server != "" && b.setting(server, SettingRoots) == "off") {
		return nil
	}
	return func() []wire.Root {
		roots := b.Roots()
		if b.Store != nil {
			told, _ := json.Marshal(roots)
			_ = b.Store.Audit(context.Background(), vault.AuditEntry{Profile: b.Profile, Kind: vault.KindMCPRoots,
				Subject: server, Digest: vault.Digest(told), Outcome: vault.OutcomeOK, Size: int64(len(roots))})
		}
		return roots
	}
}

// DefaultLogLevel is the least severe server log line tai asks for when
// nothing else is set.
const DefaultLogLevel = "warning"

// logLevel is the level tai asks a server's log lines at: its log_level
// setting, else DefaultLogLevel.
func (b *Bridge) logLevel(server string) string {
	if server == "" {
		return DefaultLogLevel
	}
	return b.setting(server, SettingLogLevel)
}

// RootsChanged tells each connected server that was offered the
// workspace that it changed (notifications/roots/list_changed, session
// era; a stateless-era server asks again on its own). A server that
// cannot be told has it noted in its log.
func (b *Bridge) RootsChanged(ctx context.Context) {
	b.mu.Lock()
	conns := make([]*conn, 0, len(b.conns))
	for _, c := range b.conns {
		conns = append(conns, c)
	}
	b.mu.Unlock()
	for _, c := range conns {
		select {
		case <-c.ready:
		default:
			continue // still connecting: it will ask for the roots as they are now
		}
		if c.err != nil {
			continue
		}
		if err := c.c.RootsChanged(ctx); err != nil {
			c.c.Note("telling the server the workspace changed failed: " + err.Error())
		}
	}
}
