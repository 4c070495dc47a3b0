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
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"tai/internal/mcp/serve"
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
func withKey(target, key string) http.Handler {
	u, err := url.Parse(target)
	if err != nil {
		log.Fatal(err)
	}
	return &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(u)
		r.Out.Host = r.In.Host
		r.Out.Header.Set("Authorization", "Bearer "+key)
	}}
}
