package wire

// Era is a family of protocol revisions that open a conversation the same
// way. It is the one place where revisions differ in how a connection
// starts: the client picks its handshake from the era it holds, and the
// transports learn from it whether a session id and a version header apply;
// on tai's server, it decides how a request finds its session.
//
// Today's revisions (2025-03-26 to 2025-11-25) form the session era: an
// initialize request negotiates the version, notifications/initialized
// follows, and the HTTP leg carries Mcp-Session-Id once the server assigns
// one. A stateless era (no initialize, per-request metadata) will be a second
// value of this type, not a flag threaded through the code.
type Era struct {
	// Name is a short label for errors and docs.
	Name string
	// Offer is the version tai proposes.
	Offer string
	// Accepts lists the versions tai takes from a server in this era.
	Accepts []string
	// Sessions reports whether the era opens with an initialize handshake
	// that may establish a server-assigned session.
	Sessions bool
}

// LegacyVersion is the first MCP revision. Many published servers (the
// reference github, postgres and slack servers among them) still answer
// with it; over the subset tai uses (initialize, tools/list, tools/call,
// ping, cancellation) it does not differ from the later ones, so tai's
// client accepts it. tai's own server does not offer it.
const LegacyVersion = "2024-11-05"

// SessionEra is the era of every revision tai's client speaks today.
var SessionEra = Era{
	Name:     "session",
	Offer:    ProtocolVersion,
	Accepts:  append(append([]string(nil), SupportedVersions...), LegacyVersion),
	Sessions: true,
}

// Accepted reports whether a server's version belongs to this era.
func (e Era) Accepted(version string) bool {
	for _, v := range e.Accepts {
		if v == version {
			return true
		}
	}
	return false
}

// Eras lists every era tai speaks, newest first.
var Eras = []Era{SessionEra}

// EraOf returns the era a protocol revision belongs to. The server picks
// how a request finds its state from the era of the revision it carries.
func EraOf(version string) (Era, bool) {
	for _, e := range Eras {
		if e.Accepted(version) {
			return e, true
		}
	}
	return Era{}, false
}
