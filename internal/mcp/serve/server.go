// Package serve is tai's MCP server (tai --serve-mcp): one Streamable HTTP
// endpoint, Bearer authentication, DNS-rebinding protection, sessions in
// memory, and the served tools — every native tool plus chat and
// completions — with, when their providers are set, resources, prompts
// and argument completion. Requests run concurrently; a session's chat
// turns run one at a time. A reply is a single JSON message, or an event
// stream when the request asked for progress or log messages and one
// came.
package serve

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"net/http"

	"tai/internal/mcp/wire"
)

// Server is the served endpoint (McpServeContext): its tools, its key and
// its sessions. It is an http.Handler for Path; Run serves it on a
// listener.
type Server struct {
	opts     Options
	parked   parked  // stateless chat turns waiting for an answer
	v2       v2Tasks // the stateless era's tasks (tasks2.go)
	keyHash  [sha256.Size]byte
	tools    map[string]*Tool
	list     []byte            // the tools/list result
	welcome  map[string][]byte // the initialize result by version
	guard    guard
	sessions sessions

	// The stateless era: its one state (never in sessions, never swept),
	// its discover and tools/list results, and the tail of its other
	// results.
	stateless     *Session
	discover      []byte
	listStateless []byte
	resultTail    []byte

	// hooks for tests in this package.
	onWait     func() // a chat starts waiting for the session's turn
	onShutdown func() // Run stopped accepting connections
}

// New checks the options and the tools and returns a Server.
func New(o Options) (*Server, error) {
	if err := o.fill(); err != nil {
		return nil, err
	}
	g, err := newGuard(o.Loopback, o.AllowOrigins)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: o, keyHash: sha256.Sum256([]byte(o.Key)), tools: map[string]*Tool{}, guard: g}
	s.parked.key = make([]byte, 32)
	if _, err := rand.Read(s.parked.key); err != nil {
		return nil, fmt.Errorf("serve: no randomness for requestState keys: %w", err)
	}
	for _, t := range o.Tools {
		if _, dup := s.tools[t.Name]; dup {
			return nil, fmt.Errorf("serve: tool %q listed twice", t.Name)
		}
		if err := t.compile(); err != nil {
			return nil, err
		}
		s.tools[t.Name] = t
	}
	if s.list, err = listing(o.Tools, wire.SessionEra); err != nil {
		return nil, fmt.Errorf("serve: encoding tools/list: %w", err)
	}
	if s.welcome, err = welcomes(o.Version, s.capabilities(wire.SessionEra)); err != nil {
		return nil, fmt.Errorf("serve: encoding the initialize result: %w", err)
	}
	if s.discover, s.listStateless, s.resultTail, err = statelessResults(o.Version, o.Tools, s.capabilities(wire.StatelessEra)); err != nil {
		return nil, fmt.Errorf("serve: encoding the stateless results: %w", err)
	}
	s.stateless = &Session{srv: s, id: "stateless", version: wire.StatelessVersion, created: o.Now(), turn: make(chan struct{}, 1), stateless: true}
	return s, nil
}

// ServeHTTP is the endpoint (mcp_serve_handler): POST one JSON-RPC
// message, DELETE a session, GET 405. The Host or Origin check comes
// first, then the key.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != Path {
		refuse(w, http.StatusNotFound, "404 page not found")
		return
	}
	if why := s.guard.refuse(r); why != "" {
		refuse(w, http.StatusForbidden, why)
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		refuse(w, http.StatusUnauthorized, "unauthorized: send Authorization: Bearer KEY, the key tai --serve-mcp was started with")
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.post(w, r)
	case http.MethodDelete:
		if statelessHeader(r.Header.Get(headerProtocol)) {
			w.Header().Set("Allow", "POST")
			refuse(w, http.StatusMethodNotAllowed, "method not allowed: protocol "+wire.StatelessVersion+" has no sessions to end; POST one JSON-RPC message")
			return
		}
		s.delete(w, r)
	default:
		w.Header().Set("Allow", "POST, DELETE")
		refuse(w, http.StatusMethodNotAllowed, "method not allowed: tai serves no event streams; POST one JSON-RPC message")
	}
}

// refuse answers a request whose body tai will not read, and closes the
// connection: otherwise net/http would read what is left of the body
// first, without a deadline, for anyone who cares to send it slowly.
func refuse(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Connection", "close")
	http.Error(w, why, status)
}

// delete ends the session named by Mcp-Session-Id.
func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(headerSession)
	if id == "" {
		http.Error(w, "bad request: DELETE needs the Mcp-Session-Id header", http.StatusBadRequest)
		return
	}
	sess := s.sessions.get(id)
	if sess == nil || !s.drop(sess) {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// Sessions is the number of live sessions.
func (s *Server) Sessions() int { return s.sessions.len() }

// Sweep drops every session idle for MCP_SESSION_IDLE or longer and
// returns how many it dropped. Run calls it periodically.
func (s *Server) Sweep() int {
	cutoff := s.opts.Now().Add(-s.opts.SessionIdle).UnixNano()
	n := 0
	for _, sess := range s.sessions.idle(cutoff + 1) {
		if s.drop(sess) {
			n++
		}
	}
	if n > 0 {
		s.opts.Logf("dropped %d session(s) idle for MCP_SESSION_IDLE (%s)", n, s.opts.SessionIdle)
	}
	return n
}

// drop removes a session and closes it; false when it was already gone.
func (s *Server) drop(sess *Session) bool {
	if !s.sessions.remove(sess) {
		return false
	}
	sess.close()
	return true
}

// Close drops every session and ends what stateless calls started.
func (s *Server) Close() {
	for _, sess := range s.sessions.all() {
		s.drop(sess)
	}
	s.stateless.close()
	s.parked.stop()
	s.v2.stop()
}

// Header names of the Streamable HTTP transport.
const (
	headerSession  = wire.HeaderSessionID
	headerProtocol = wire.HeaderProtocolVersion
)

// defaultVersion is the revision of a request without MCP-Protocol-Version,
// as the transport specification says.
const defaultVersion = "2025-03-26"
