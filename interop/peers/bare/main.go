// Command bare is make bench-serve's ceiling: a net/http handler that
// reads each request and answers it with the bytes tai answers it with,
// and does nothing else: no parsing, no key, no sessions.
package main

import (
	"bytes"
	"io"
	"log"
	"net/http"

	"tai/interop/internal/peer"
)

var (
	initialize = []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bare","version":"1"}}}`)
	ping       = []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	call       = []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}`)
)

func main() {
	log.Fatal(http.Serve(peer.Listen(), http.HandlerFunc(serve)))
}

func serve(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	io.Copy(&buf, r.Body)
	b := buf.Bytes()
	var out []byte
	switch {
	case bytes.Contains(b, []byte(`"tools/call"`)):
		out = call
	case bytes.Contains(b, []byte(`"ping"`)):
		out = ping
	case bytes.Contains(b, []byte(`"initialize"`)):
		w.Header().Set("Mcp-Session-Id", "0123456789abcdef0123456789abcdef")
		out = initialize
	default:
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}
