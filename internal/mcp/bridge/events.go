package bridge

import (
	"encoding/json"

	"tai/internal/mcp/wire"
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
// marked stale, a completed URL elicitation ends the wait of the call that
// asked for it, and everything goes to the bridge's OnEvent, when set.
func (b *Bridge) heard(server, method string, params json.RawMessage) {
	if method == wire.MethodElicitComplete {
		b.elicitationComplete(server, params)
	}
	if kind, ok := listKinds[method]; ok {
		b.listChanged(server, kind)
	}
	if b.OnEvent != nil {
		b.OnEvent(Event{Server: server, Method: method, Params: params})
	}
}

// rootsFor is what a server is told of the workspace (roots/list), or nil
// to declare no roots.
func (b *Bridge) rootsFor(string) func() []wire.Root {
	return b.Roots
}

// DefaultLogLevel is the least severe server log line tai asks for when
// nothing else is set.
const DefaultLogLevel = "warning"

// logLevel is the level tai asks a server's log lines at.
func (b *Bridge) logLevel(string) string {
	return DefaultLogLevel
}
