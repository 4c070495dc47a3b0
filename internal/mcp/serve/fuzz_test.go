package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"tai/internal/mcp/wire"
)

// FuzzPost drives the POST handler with arbitrary bodies, in a session
// and out of one. It must never panic, must answer every request with a
// status the endpoint table allows, and every JSON-RPC body it sends must
// be one valid message; a request with an id is answered with that id.
func FuzzPost(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":3}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"mem://a","_meta":{"progressToken":"t"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list","params":{"cursor":"x"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{"uri":"mem://a"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"x"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":""}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`42`, `"`, ``,
	} {
		f.Add([]byte(seed), true)
	}
	echo := &Tool{Name: "echo", InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
			return TextResult(string(c.Args), false), nil
		}}
	srv, err := New(Options{Key: testKey, Tools: []*Tool{echo}, Loopback: true, Resources: memResources{}, Prompts: fakePrompts{}, Complete: memResources{}})
	if err != nil {
		f.Fatal(err)
	}
	init := httptest.NewRecorder()
	srv.ServeHTTP(init, fuzzRequest([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize"}`), ""))
	sess := init.Header().Get(headerSession)
	if sess == "" {
		f.Fatalf("no session: %d %s", init.Code, init.Body)
	}
	allowed := map[int]bool{200: true, 202: true, 400: true, 404: true}
	f.Fuzz(func(t *testing.T, body []byte, inSession bool) {
		id := ""
		if inSession {
			id = sess
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, fuzzRequest(body, id))
		if !allowed[w.Code] {
			t.Fatalf("HTTP %d for %q", w.Code, body)
		}
		if w.Code == 202 {
			if w.Body.Len() != 0 {
				t.Fatalf("202 with a body for %q", body)
			}
			return
		}
		m, err := wire.Decode(w.Body.Bytes())
		if err != nil || !m.IsResponse() {
			t.Fatalf("HTTP %d answer %q to %q is not a JSON-RPC response: %v", w.Code, w.Body, body, err)
		}
		if req, err := wire.Decode(body); err == nil && req.IsRequest() && m.ID != req.ID {
			t.Fatalf("request id %s answered with id %s", req.ID, m.ID)
		}
		if srv.Sessions() > 1000 { // initializes pile up; keep memory flat
			for _, other := range srv.sessions.all() {
				if other.id != sess {
					srv.drop(other)
				}
			}
		}
	})
}

func fuzzRequest(body []byte, sess string) *http.Request {
	r := httptest.NewRequestWithContext(context.Background(), "POST", "http://127.0.0.1:8765/mcp", bytes.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+testKey)
	if sess != "" {
		r.Header.Set(headerSession, sess)
	}
	return r
}

// FuzzAppendString checks the hand-written JSON string encoder against
// encoding/json: the same string comes back, invalid UTF-8 as U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "quote \" and \\ back", "\n\r\t\x00\x1f", "ü€😀", "\xff\xfe", "\u2028\u2029", "<a&b>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q encoded as invalid JSON %s: %v", s, out, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		json.Unmarshal(ref, &want)
		if got != want {
			t.Fatalf("%q: got %q, encoding/json gives %q", s, got, want)
		}
	})
}
