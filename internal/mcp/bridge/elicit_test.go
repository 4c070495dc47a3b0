package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// askingServer is a session-era server over HTTP that, like the
// TypeScript SDK's server.request, sends its question for a tools/call on
// the GET event stream rather than on the call's reply, and drops it when
// no GET stream is open.
type askingServer struct {
	mu      sync.Mutex
	stream  chan []byte // events for the open GET stream
	answers chan json.RawMessage
}

func (s *askingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		ch := make(chan []byte, 4)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		s.mu.Lock()
		s.stream = ch
		s.mu.Unlock()
		for {
			select {
			case ev := <-ch:
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", ev)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	body, _ := io.ReadAll(r.Body)
	m, err := wire.Decode(body)
	if err != nil {
		http.Error(w, "bad", http.StatusBadRequest)
		return
	}
	reply := func(v any) {
		out, _ := wire.NewResult(m.ID, v)
		b, _ := wire.Encode(out)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Write(b)
	}
	switch {
	case m.IsResponse():
		s.answers <- m.Result
		w.WriteHeader(http.StatusAccepted)
	case m.IsNotification():
		w.WriteHeader(http.StatusAccepted)
	case m.Method == wire.MethodInitialize:
		reply(map[string]any{"protocolVersion": wire.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "asking", "version": "1"}})
	case m.Method == wire.MethodToolsList:
		reply(map[string]any{"tools": []any{map[string]any{"name": "ask", "inputSchema": map[string]any{"type": "object"}}}})
	case m.Method == wire.MethodToolsCall:
		s.mu.Lock()
		stream := s.stream
		s.mu.Unlock()
		if stream == nil {
			reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "dropped: no stream was open"}}})
			return
		}
		stream <- []byte(`{"jsonrpc":"2.0","id":"q1","method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`)
		got := <-s.answers
		reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "answered " + string(got)}}})
	default:
		out := wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMethodNotFound, Message: "no"})
		b, _ := wire.Encode(out)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}
}

// A session-era HTTP server's question sent on the GET stream reaches the
// host's Elicit, even when the call follows the connection at once: the
// first call waits for the stream. The answer is audited once, by the
// bridge, without its content.
func TestElicit_QuestionOnTheGETStream(t *testing.T) {
	srv := httptest.NewServer(&askingServer{answers: make(chan json.RawMessage, 1)})
	t.Cleanup(srv.Close) // after the bridge's connections close, which end the GET stream
	f := newFixture(t)
	var asked []string
	f.b.Elicit = func(_ context.Context, server string, params json.RawMessage) (json.RawMessage, error) {
		asked = append(asked, server+" "+string(params))
		return json.RawMessage(`{"action":"accept","content":{"ok":true}}`), nil
	}
	f.add(t, httpEntry("asking", srv.URL), true)
	out, err := f.invoke(context.Background(), "asking", "ask", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != `answered {"action":"accept","content":{"ok":true}}` {
		t.Fatalf("the call returned %q", out.Text)
	}
	if len(asked) != 1 || !strings.HasPrefix(asked[0], `asking {"message":"Sure?"`) {
		t.Fatalf("Elicit saw %q", asked)
	}
	rows, err := f.store.AuditEntries(context.Background(), vault.AuditQuery{Kind: vault.KindMCPElicit})
	if err != nil || len(rows) != 1 {
		t.Fatalf("audit rows %v, %v", rows, err)
	}
	if r := rows[0]; r.Subject != "asking/form" || r.Outcome != vault.OutcomeAccept || r.Digest == "" {
		t.Fatalf("audit row %+v", r)
	}
}
