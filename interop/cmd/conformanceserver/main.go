// Command conformanceserver serves tai's MCP endpoint, the serve package
// exactly as tai --serve-mcp runs it (the same handler, sessions, key check
// and Run), with the fixture tools, resources, prompts and completions the
// official conformance suite's server scenarios use. The suite sends no Authorization header and has no
// option for one, so a reverse proxy on another loopback port adds it and
// passes everything else on unchanged, Host and Origin included. It prints
// the proxy's URL on stdout and serves until SIGINT or SIGTERM.
//
// tai itself never serves without a key; only this test program holds one
// on the suite's behalf.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	key := make([]byte, 16)
	rand.Read(key)
	srv, err := serve.New(serve.Options{Key: hex.EncodeToString(key), Tools: fixtures(), Version: "conformance", Loopback: true,
		Resources: suite{}, Prompts: suite{}, Complete: suite{}})
	if err != nil {
		log.Fatal(err)
	}
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	outer, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, inner) }()
	go http.Serve(outer, withKey("http://"+inner.Addr().String(), hex.EncodeToString(key)))
	fmt.Printf("http://%s%s\n", outer.Addr(), serve.Path)
	os.Stdout.Sync()
	if err := <-done; err != nil {
		log.Fatal(err)
	}
}

// withKey proxies to target, adding the Bearer key and keeping the Host
// header the client sent, so the server's DNS-rebinding check sees it.
//
// It reads each request's body whole before passing it on. A streamed body
// races: net/http's server closes a request's body once the handler writes
// its response headers (an event stream's are flushed at once), while the
// proxy's Transport may not yet have made its last read of that body, past
// the end, that finishes writing the request. That read then fails, the
// Transport closes the connection to tai, and the client's event stream
// ends after its first event (under load, about 1 run in 50 of
// tools-call-elicitation, whose answer comes on a stream after a question).
func withKey(target, key string) http.Handler {
	u, err := url.Parse(target)
	if err != nil {
		log.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(u)
		r.Out.Host = r.In.Host
		r.Out.Header.Set("Authorization", "Bearer "+key)
	}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// One byte past tai's limit is enough for tai to refuse it itself.
		body, err := io.ReadAll(io.LimitReader(r.Body, wire.HTTPMaxBody+1))
		if err != nil {
			http.Error(w, "conformanceserver: reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		proxy.ServeHTTP(w, r)
	})
}
