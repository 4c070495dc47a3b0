package serve

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// Session is one MCP session: what its initialize opened, until DELETE or
// MCP_SESSION_IDLE ends it. It holds the tool environment of direct calls
// and the chat conversations, each made on first use, so an idle session
// costs a few hundred bytes.
type Session struct {
	srv     *Server
	id      string
	version string // negotiated protocol version
	created time.Time
	// stateless marks the server's one state of the stateless era: its
	// chat conversations live in the vault, not here.
	stateless bool
	seen      atomic.Int64 // unix nanoseconds of the last request
	// level is the severity of logging/setLevel plus one; 0 sends no log
	// messages.
	level atomic.Int32

	// turn is held by the session's running chat turn.
	turn chan struct{}
	// elicits is set when the client declared elicitation (form) at
	// initialize: a chat's agent may then ask its person (ask.go).
	elicits bool
	// asks numbers tai's requests to the client.
	asks atomic.Int64

	mu       sync.Mutex
	closed   bool
	env      *tools.Env
	convs    map[string]*conversation
	inflight map[wire.ID]io.Closer
	subs     map[string]bool               // resources/subscribe
	waiting  map[string]chan *wire.Message // tai's requests to the client, by id
	taskList []*servedTask                 // tasks.go
}

// ID is the Mcp-Session-Id.
func (s *Session) ID() string { return s.id }

// Created is when initialize opened the session.
func (s *Session) Created() time.Time { return s.created }

// LastSeen is when the session's last request arrived.
func (s *Session) LastSeen() time.Time { return time.Unix(0, s.seen.Load()) }

func newSessionID() string {
	var b [16]byte // 128 bits
	if _, err := rand.Read(b[:]); err != nil {
		panic("serve: no randomness for a session id: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// track registers how to end a call, so that notifications/cancelled can
// reach it, until untrack.
func (s *Session) track(id wire.ID, stop io.Closer) {
	s.mu.Lock()
	if s.inflight == nil {
		s.inflight = map[wire.ID]io.Closer{}
	}
	s.inflight[id] = stop
	s.mu.Unlock()
}

func (s *Session) untrack(id wire.ID) {
	s.mu.Lock()
	delete(s.inflight, id)
	s.mu.Unlock()
}

// cancel ends the call with id, if it is still running.
func (s *Session) cancel(id wire.ID) {
	s.mu.Lock()
	c := s.inflight[id]
	s.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// logLevel is the least severity of the log messages the session asked
// for with logging/setLevel, or -1 for none.
func (s *Session) logLevel() int { return int(s.level.Load()) - 1 }

// subscribe adds or removes a resource subscription; false when the
// session holds MaxSubscriptions already.
func (s *Session) subscribe(uri string, on bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !on {
		delete(s.subs, uri)
		return true
	}
	if s.subs == nil {
		s.subs = map[string]bool{}
	}
	if !s.subs[uri] && len(s.subs) >= MaxSubscriptions {
		return false
	}
	s.subs[uri] = true
	return true
}

// Subscribed reports whether the session subscribed to uri.
func (s *Session) Subscribed(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subs[uri]
}

// close ends what the session's tools started (background jobs, MCP
// connections) and cancels its calls. It runs once.
func (s *Session) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	env, convs, calls, tasks := s.env, s.convs, s.inflight, s.taskList
	s.env, s.convs, s.inflight, s.taskList = nil, nil, nil, nil
	s.mu.Unlock()
	for _, c := range calls {
		c.Close()
	}
	for _, t := range tasks {
		t.cancel()
	}
	if env != nil && env.State != nil {
		env.State.Close()
	}
	for _, c := range convs {
		c.close()
	}
}

// sessions is the table of live sessions.
type sessions struct {
	mu sync.RWMutex
	m  map[string]*Session
}

func (t *sessions) add(s *Session) {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[string]*Session{}
	}
	t.m[s.id] = s
	t.mu.Unlock()
}

func (t *sessions) get(id string) *Session {
	t.mu.RLock()
	s := t.m[id]
	t.mu.RUnlock()
	return s
}

// remove takes s out of the table and reports whether it was there.
func (t *sessions) remove(s *Session) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m[s.id] != s {
		return false
	}
	delete(t.m, s.id)
	return true
}

// idle returns the sessions last seen before cutoff.
func (t *sessions) idle(cutoff int64) []*Session {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []*Session
	for _, s := range t.m {
		if s.seen.Load() < cutoff {
			out = append(out, s)
		}
	}
	return out
}

// all returns every live session.
func (t *sessions) all() []*Session {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]*Session, 0, len(t.m))
	for _, s := range t.m {
		out = append(out, s)
	}
	return out
}

func (t *sessions) len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.m)
}
