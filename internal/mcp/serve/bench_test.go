package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"

	"tai/internal/tools"
)

// benchEcho is the trivial tool of make bench-serve, as a native tool.
var benchEcho = tools.Raw(tools.Tool{
	Name:   "echo",
	Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
	Safe:   tools.AlwaysSafe,
}, func(ctx context.Context, call tools.Call) (tools.Result, error) {
	in, err := tools.DecodeArgs[struct {
		Text string `json:"text"`
	}](call.Args)
	if err != nil {
		return tools.Errorf("echo: %v", err), nil
	}
	return tools.Text(in.Text), nil
})

// benchPost measures the handler alone (no network) on one message in a
// session.
func benchPost(b *testing.B, body string) { benchPostWith(b, body, true) }

// benchPostWith is benchPost, in a session or in the stateless era
// (2026-07-28: the _meta claim is in body, the request headers are set
// here).
func benchPostWith(b *testing.B, body string, session bool) {
	srv, err := New(Options{Key: testKey, Tools: []*Tool{Native(benchEcho)}, Loopback: true})
	if err != nil {
		b.Fatal(err)
	}
	init := httptest.NewRecorder()
	srv.ServeHTTP(init, fuzzRequest([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize"}`), ""))
	sess := init.Header().Get(headerSession)
	msg := []byte(body)
	b.ReportAllocs()
	// CPU time per call beside the wall time: on a shared machine the
	// process's own CPU time is the steadier measure of what a call costs.
	cpu := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		w := httptest.NewRecorder()
		var r *http.Request
		if session {
			r = fuzzRequest(msg, sess)
			r.Header.Set(headerProtocol, "2025-11-25")
		} else {
			r = fuzzRequest(msg, "")
			r.Header.Set(headerProtocol, "2026-07-28")
			r.Header.Set("Mcp-Method", "tools/call")
			r.Header.Set("Mcp-Name", "echo")
		}
		srv.ServeHTTP(w, r)
		if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte(`"result"`)) {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

func BenchmarkPost_Ping(b *testing.B) { benchPost(b, `{"jsonrpc":"2.0","id":1,"method":"ping"}`) }

func BenchmarkPost_ToolsCall(b *testing.B) {
	benchPost(b, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
}

// BenchmarkPost_ToolsCallStateless is BenchmarkPost_ToolsCall in the
// stateless era; the era must cost no more per call.
func BenchmarkPost_ToolsCallStateless(b *testing.B) {
	benchPostWith(b, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},`+modernMeta+`}}`, false)
}

// cpuTime is the user and system time this process has used, in
// nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
