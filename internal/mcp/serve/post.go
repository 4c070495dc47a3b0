package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// post handles one JSON-RPC message. The order of the checks is part of
// the contract: a message that cannot be read is refused before anything
// looks at eras or sessions; a request claiming the stateless era goes to
// postStateless; in the session era an unknown method is -32601 whatever
// session it names, so that clients probing newer methods fall back
// cleanly.
func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer putBuf(buf)
	if status, why := s.readBody(w, r, buf); status != 0 {
		refuse(w, status, why)
		return
	}
	m, err := wire.Decode(buf.Bytes())
	if err != nil {
		s.refuseMessage(w, buf.Bytes(), m, err)
		return
	}
	if m.IsResponse() {
		s.answered(w, r, m)
		return
	}
	era, claim := eraOf(r, m)
	if !era.Sessions {
		s.postStateless(w, r, m, claim)
		return
	}
	if !s.handles(m.Method, era) {
		if m.IsNotification() {
			w.WriteHeader(http.StatusAccepted) // other notifications are ignored
			return
		}
		writeError(w, http.StatusOK, m.ID, wire.CodeMethodNotFound, "method not found: "+wire.Printable(m.Method, 80))
		return
	}
	if !sessionVersion(r) {
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeInvalidRequest, fmt.Sprintf(
			"unsupported MCP-Protocol-Version %q; tai speaks %v", wire.Printable(r.Header.Get(headerProtocol), 40), wire.ServedVersions))
		return
	}
	sess, status, why := s.bind(era, r, m)
	if status != 0 {
		writeError(w, status, m.ID, wire.CodeInvalidRequest, why)
		return
	}
	s.dispatch(w, r, sess, m)
}

// readBody reads the body within MCP_HTTP_MAX_BODY and the body deadline,
// and returns a status and reason when it cannot.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, buf *bytes.Buffer) (int, string) {
	if r.ContentLength > wire.HTTPMaxBody {
		return http.StatusRequestEntityTooLarge, tooLarge
	}
	// Under Run, net/http's ReadTimeout already bounds the headers and the
	// body; a handler mounted elsewhere sets its own deadline.
	rc := http.NewResponseController(w)
	if r.Context().Value(connKey{}) == nil {
		_ = rc.SetReadDeadline(time.Now().Add(s.opts.BodyTimeout))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, wire.HTTPMaxBody))
	if err != nil {
		// Do not let net/http read the rest before answering.
		w.Header().Set("Connection", "close")
	} else {
		// A long call must not lose its context when the deadline passes
		// (net/http cancels a request once a read on its connection fails).
		_ = rc.SetReadDeadline(time.Time{})
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge, tooLarge
	case err != nil:
		return http.StatusBadRequest, "bad request: the body could not be read in full (" + err.Error() + ")"
	}
	return 0, ""
}

// refuseMessage answers a body that is not one JSON-RPC request: -32700
// when it is not JSON, -32600 when it is JSON of the wrong shape (a batch
// array, a scalar, a bad id, a missing method).
func (s *Server) refuseMessage(w http.ResponseWriter, body []byte, m *wire.Message, err error) {
	id := wire.ID{}
	if m != nil {
		id = m.ID
	}
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		writeError(w, http.StatusBadRequest, id, wire.CodeInvalidRequest, "batch arrays are not supported: POST one JSON-RPC message")
	case !json.Valid(trimmed):
		writeError(w, http.StatusBadRequest, id, wire.CodeParseError, "parse error: the body is not JSON")
	case trimmed[0] != '{':
		writeError(w, http.StatusBadRequest, id, wire.CodeInvalidRequest, "invalid request: the body is JSON but not an object; POST one JSON-RPC request object")
	default:
		writeError(w, http.StatusBadRequest, id, wire.CodeInvalidRequest, "invalid request: "+err.Error())
	}
}

var tooLarge = fmt.Sprintf("request body too large: tai takes at most %d bytes (MCP_HTTP_MAX_BODY)", wire.HTTPMaxBody)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putBuf keeps buffers of ordinary size for reuse.
func putBuf(b *bytes.Buffer) {
	if b.Cap() > 64<<10 {
		return
	}
	b.Reset()
	bufPool.Put(b)
}
