package wire

// Era is a family of protocol revisions that open a conversation the same
// way. It is the one place where revisions differ in how a connection
// starts: the client picks its handshake from the era it holds, and the
// transports learn from it whether a session id, the per-request metadata
// and the request headers apply; on tai's server, it decides how a request
// finds its state.
//
// The session era (2024-11-05 to 2025-11-25, "legacy" in the specification)
// opens with initialize, which negotiates the version, then
// notifications/initialized, and the HTTP leg carries Mcp-Session-Id once
// the server assigns one. The stateless era (2026-07-28, "modern") has no
// handshake and no session: every request carries its version and the
// client's capabilities in params._meta, and server/discover tells a client
// what a server speaks.
type Era struct {
	// Name is a short label for errors, listings and the vault.
	Name string
	// Offer is the version tai proposes.
	Offer string
	// Accepts lists the versions tai takes from a server in this era.
	Accepts []string
	// Sessions reports whether the era opens with an initialize handshake
	// that may establish a server-assigned session. An era without
	// sessions carries RequestMeta on every request instead.
	Sessions bool
}

// LegacyVersion is the first MCP revision. Many published servers (the
// reference github, postgres and slack servers among them) still answer
// with it; over the subset tai uses (initialize, tools/list, tools/call,
// ping, cancellation) it does not differ from the later ones, so tai's
// client accepts it. tai's own server does not offer it.
const LegacyVersion = "2024-11-05"

// SessionEra is the era of the revisions that open with initialize.
var SessionEra = Era{
	Name:     "session",
	Offer:    ProtocolVersion,
	Accepts:  append(append([]string(nil), SupportedVersions...), LegacyVersion),
	Sessions: true,
}

// StatelessEra is the era of the revisions without a handshake
// (MCP_STATELESS_VERSION).
var StatelessEra = Era{
	Name:    "stateless",
	Offer:   StatelessVersion,
	Accepts: []string{StatelessVersion},
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

// Eras lists every era tai speaks, newest first: the order in which a
// client with no remembered verdict tries them.
var Eras = []Era{StatelessEra, SessionEra}

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

// EraNamed returns the era called name ("stateless", "session").
func EraNamed(name string) (Era, bool) {
	for _, e := range Eras {
		if e.Name == name {
			return e, true
		}
	}
	return Era{}, false
}

// AllVersions lists every version tai's client speaks, newest first, for
// errors that name them.
func AllVersions() []string {
	var out []string
	for _, e := range Eras {
		out = append(out, e.Accepts...)
	}
	return out
}
