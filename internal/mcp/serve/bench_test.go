package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"tai/internal/tools"
)

// benchEcho is the trivial tool of make bench-serve, as a native tool.
var benchEcho = &tools.Tool{
	Name:   "echo",
	Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
	Safe:   tools.AlwaysSafe,
	Run: func(ctx context.Context, call tools.Call) (tools.Result, error) {
		in, err := tools.DecodeArgs[struct {
			Text string `json:"text"`
		}](call.Args)
		if err != nil {
			return tools.Errorf("echo: %v", err), nil
		}
		return tools.Text(in.Text), nil
	},
}

// benchPost measures the handler alone (no network) on one message.
func benchPost(b *testing.B, body string) {
	srv, err := New(Options{Key: testKey, Tools: []*Tool{Native(benchEcho)}, Loopback: true})
	if err != nil {
		b.Fatal(err)
	}
	init := httptest.NewRecorder()
	srv.ServeHTTP(init, fuzzRequest([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize"}`), ""))
	sess := init.Header().Get(headerSession)
	msg := []byte(body)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, fuzzRequest(msg, sess))
		if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte(`"result"`)) {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

func BenchmarkPost_Ping(b *testing.B) { benchPost(b, `{"jsonrpc":"2.0","id":1,"method":"ping"}`) }

func BenchmarkPost_ToolsCall(b *testing.B) {
	benchPost(b, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
}
