package serve

import (
	"net/http"

	"tai/internal/mcp/wire"
)

// eraOf reads the era of a request from its MCP-Protocol-Version header;
// no header means 2025-03-26. A revision tai's server does not speak
// (wire.SupportedVersions) is refused, the first one included, which only
// tai's client accepts.
func eraOf(r *http.Request) (wire.Era, bool) {
	v := r.Header.Get(headerProtocol)
	if v == "" {
		v = defaultVersion
	}
	if !wire.Supported(v) {
		return wire.Era{}, false
	}
	return wire.EraOf(v)
}

// bind finds the state a request runs against; it is the one place where
// eras differ on the server. In the session era, initialize opens a
// session (so it must not name one), and every other method runs in the
// session its Mcp-Session-Id names. A stateless era will bind each request
// to state built from its own metadata here, and nothing else in the
// server will ask which era it is in.
//
// It returns the session (nil for initialize), or an HTTP status and the
// reason for refusing.
func (s *Server) bind(era wire.Era, r *http.Request, m *wire.Message) (*Session, int, string) {
	if !era.Sessions {
		return nil, http.StatusBadRequest, "protocol era " + era.Name + " is not served yet"
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
