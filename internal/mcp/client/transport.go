package client

import (
	"context"

	"tai/internal/mcp/wire"
)

// Transport says how to reach one server: Stdio or HTTP. Its dial method is
// unexported, so the set of transports is closed to this package.
type Transport interface {
	// String names the server for errors: the command line or the URL
	// without its query.
	String() string
	dial(ctx context.Context, p peer, log *tail) (transport, error)
}

// transport carries whole JSON-RPC messages to and from one server. The
// era's differences stay behind negotiated; everything else is the same for
// every revision.
type transport interface {
	// start begins reading; dial does not, so that the Client is ready
	// for whatever arrives.
	start()
	// send delivers one message. Messages the server sends back (on stdio at
	// any time, on HTTP within the reply to this POST) go to the peer.
	// For a request over HTTP, send returns once the matching response has
	// been delivered or the reply ended without it.
	send(ctx context.Context, m *wire.Message) error
	// negotiated records the era and version the handshake tries or
	// settled on; the HTTP leg sends the version as MCP-Protocol-Version
	// from then on (none for the session era's initialize), and in the
	// stateless era the request headers and no session id.
	negotiated(era wire.Era, version string)
	// closesToCancel reports whether giving up on a request is itself the
	// cancellation (the stateless era over HTTP, where the reply closes);
	// otherwise the client sends notifications/cancelled.
	closesToCancel() bool
	// lost is closed once the connection cannot carry messages any more;
	// cause then says why.
	lost() <-chan struct{}
	cause() error
	// close shuts the connection down and waits for every goroutine and
	// process it started.
	close() error
}

// peer is what a transport delivers to: the Client.
type peer interface {
	// deliver takes one well-formed message from the server.
	deliver(m *wire.Message)
	// reject takes input that is not a valid message. m is the partial
	// message when Decode could read an id, else nil.
	reject(m *wire.Message, err error)
	// reopen runs the handshake again after the server dropped the
	// session.
	reopen(ctx context.Context) error
	// paramHeaders returns the x-mcp-header annotations of a listed tool.
	paramHeaders(tool string) []paramHeader
}
