package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
)

// httpFake serves mcptest.Server over Streamable HTTP, replying in JSON or as
// an event stream, with sessions, and records what it saw.
type httpFake struct {
	sse   bool
	brain *mcptest.Server
	srv   *httptest.Server
	// override, when set, may answer a decoded POST itself.
	override func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool

	mu        sync.Mutex
	brainMu   sync.Mutex
	streams   map[wire.ID]chan *wire.Message // open request POSTs by id
	current   chan *wire.Message             // the POST the brain is handling
	sessions  map[string]bool
	nextSess  int
	verbs     []string
	seen      []http.Header // headers of every POST, in order
	methods   []string      // JSON-RPC method (or "response") of every POST
	stderr    strings.Builder
	initCount int
}

func newHTTPFake(t testing.TB, script string, sse bool) *httpFake {
	f := &httpFake{sse: sse, streams: map[wire.ID]chan *wire.Message{}, sessions: map[string]bool{}}
	f.brain = &mcptest.Server{Script: script}
	f.brain.Send = f.route
	f.brain.Raw = func(string) { panic("raw output has no HTTP form") }
	f.brain.Stderr = func(s string) {
		f.mu.Lock()
		f.stderr.WriteString(s + "\n")
		f.mu.Unlock()
	}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *httpFake) transport() HTTP {
	return HTTP{URL: f.srv.URL + "/mcp", Headers: map[string]string{"X-Key": "k1"}}
}

// route sends a server message to the POST awaiting its id, or else to
// the POST being handled.
func (f *httpFake) route(m *wire.Message) {
	f.mu.Lock()
	ch, ok := f.streams[m.ID]
	if !ok || !m.IsResponse() {
		ch = f.current
	}
	f.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

func (f *httpFake) forgetSessions() {
	f.mu.Lock()
	f.sessions = map[string]bool{}
	f.mu.Unlock()
}

func (f *httpFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.verbs = append(f.verbs, r.Method)
	f.mu.Unlock()
	if r.Method != http.MethodPost {
		http.Error(w, "only POST", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	m, err := wire.Decode(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.seen = append(f.seen, r.Header.Clone())
	f.methods = append(f.methods, cmpOr(m.Method, "response"))
	f.mu.Unlock()
	if f.override != nil && f.override(w, r, m) {
		return
	}
	if f.brain.Stateless() {
		if why := statelessRefusal(r, m); why != nil {
			b, _ := wire.Encode(wire.NewErrorResponse(m.ID, why))
			w.WriteHeader(http.StatusBadRequest)
			w.Write(b)
			return
		}
	} else if !f.session(w, r, m) {
		return
	}
	ch := make(chan *wire.Message, 16)
	if m.IsRequest() {
		f.mu.Lock()
		f.streams[m.ID] = ch
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			delete(f.streams, m.ID)
			f.mu.Unlock()
		}()
	}
	f.brainMu.Lock()
	f.mu.Lock()
	f.current = ch
	f.mu.Unlock()
	f.brain.Handle(m)
	f.mu.Lock()
	f.current = nil
	f.mu.Unlock()
	f.brainMu.Unlock()
	if !m.IsRequest() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	f.reply(w, r.Context(), m, ch)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// statelessRefusal is what a stateless-era HTTP server refuses: a request
// whose headers disagree with its body.
func statelessRefusal(r *http.Request, m *wire.Message) *wire.Error {
	c := wire.ReadClaim(m.Params)
	if r.Header.Get(wire.HeaderProtocolVersion) != c.Version || r.Header.Get(wire.HeaderMethod) != m.Method {
		return &wire.Error{Code: wire.CodeHeaderMismatch, Message: "header mismatch"}
	}
	if m.Method == wire.MethodToolsCall {
		var p wire.CallToolParams
		p.UnmarshalJSON(m.Params)
		if name, _ := wire.ReadHeaderValue(r.Header.Get(wire.HeaderName)); name != p.Name {
			return &wire.Error{Code: wire.CodeHeaderMismatch, Message: "Mcp-Name mismatch"}
		}
	}
	return nil
}

// session assigns ids on initialize and answers 404 to forgotten ones.
func (f *httpFake) session(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.Method == wire.MethodInitialize {
		f.nextSess++
		f.initCount++
		id := fmt.Sprintf("sess-%d", f.nextSess)
		f.sessions[id] = true
		w.Header().Set("Mcp-Session-Id", id)
		return true
	}
	if !f.sessions[r.Header.Get("Mcp-Session-Id")] {
		http.Error(w, "no such session", http.StatusNotFound)
		return false
	}
	return true
}

// reply writes messages for request m until its response.
func (f *httpFake) reply(w http.ResponseWriter, ctx context.Context, m *wire.Message, ch chan *wire.Message) {
	if !f.sse {
		for {
			select {
			case out := <-ch:
				if out.IsResponse() && out.ID == m.ID {
					b, _ := wire.Encode(out)
					w.Header().Set("Content-Type", "application/json")
					w.Write(b)
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl := w.(http.Flusher)
	// a priming event (an id, empty data), a comment, an event of another name
	fmt.Fprint(w, "id: prime-1\ndata: \n\n: a comment\n\nevent: ping\ndata: {\"ignored\":true}\n\n")
	for {
		select {
		case out := <-ch:
			b, _ := wire.Encode(out)
			fmt.Fprintf(w, "id: %d\nevent: message\ndata: %s\n\n", len(b), b)
			fl.Flush()
			if out.IsResponse() && out.ID == m.ID {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// posts counts the POSTs of method; f.mu is held.
func (f *httpFake) posts(method string) int {
	n := 0
	for _, m := range f.methods {
		if m == method {
			n++
		}
	}
	return n
}
