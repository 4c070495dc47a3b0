package serve

import (
	"net/http"

	"tai/internal/mcp/wire"
)

// eraOf picks the era a POST is served in. A request whose params._meta
// claims a protocol version, or whose MCP-Protocol-Version is the stateless
// era's or newer, is a stateless-era request (and is refused there when its
// claim is wrong); anything else is the session era's.
func eraOf(r *http.Request, m *wire.Message) (wire.Era, wire.Claim) {
	claim := wire.ReadClaim(m.Params)
	if claim.Present || statelessHeader(r.Header.Get(headerProtocol)) {
		return wire.StatelessEra, claim
	}
	return wire.SessionEra, claim
}

// statelessHeader reports whether an MCP-Protocol-Version names the
// stateless era or a later revision: revisions are dates, so a later one
// sorts after it.
func statelessHeader(v string) bool { return v >= wire.StatelessVersion }

// sessionVersion reads the session-era revision of a request from its
// MCP-Protocol-Version header; no header means 2025-03-26. A revision
// tai's server does not speak (wire.SupportedVersions) is refused, the
// first one included, which only tai's client accepts.
func sessionVersion(r *http.Request) bool {
	v := r.Header.Get(headerProtocol)
	if v == "" {
		v = defaultVersion
	}
	return wire.Supported(v)
}

// bind finds the state a request runs against; it is the one place where
// eras differ on the server. In the session era, initialize opens a
// session (so it must not name one), and every other method runs in the
// session its Mcp-Session-Id names. In the stateless era every request
// runs against the server's one stateless state, whatever session id it
// carries, and chat keeps its conversations in the vault.
//
// It returns the session (nil for initialize), or an HTTP status and the
// reason for refusing.
func (s *Server) bind(era wire.Era, r *http.Request, m *wire.Message) (*Session, int, string) {
	if !era.Sessions {
		return s.stateless, 0, ""
	}
	id := r.Header.Get(headerSession)
	if m.Method == wire.MethodInitialize {
		if id != "" {
			return nil, http.StatusBadRequest, "this request already belongs to a session: send initialize without Mcp-Session-Id to open a new one"
		}
		return nil, 0, ""
	}
	if id == "" {
		return nil, http.StatusBadRequest, "no Mcp-Session-Id: send initialize first and then the session id it returns"
	}
	sess := s.sessions.get(id)
	if sess == nil {
		return nil, http.StatusNotFound, "session not found (ended, expired or never opened): send initialize for a new one"
	}
	now := s.opts.Now()
	if now.Sub(sess.LastSeen()) >= s.opts.SessionIdle {
		s.drop(sess)
		return nil, http.StatusNotFound, "session expired after MCP_SESSION_IDLE without requests: send initialize for a new one"
	}
	sess.seen.Store(now.UnixNano())
	return sess, 0, ""
}
