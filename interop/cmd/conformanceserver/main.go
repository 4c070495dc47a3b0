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
	"bufio"
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
	"strings"
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
// An event stream is passed on an event at a time (see wholeEvents).
func withKey(target, key string) http.Handler {
	u, err := url.Parse(target)
	if err != nil {
		log.Fatal(err)
	}
	return &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(u)
		r.Out.Host = r.In.Host
		r.Out.Header.Set("Authorization", "Bearer "+key)
	}, ModifyResponse: func(res *http.Response) error {
		if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			res.Body = &wholeEvents{r: bufio.NewReader(res.Body), c: res.Body}
		}
		return nil
	}}
}

// wholeEvents reads an event stream an event at a time, so the proxy
// writes (and flushes) each event whole, as tai's endpoint wrote it. The
// proxy otherwise passes on whatever part of an event the connection
// holds when it reads, and under load the suite's event-stream reader
// lost a result split that way (the scenario then timed out or found
// "no result in response body"); tai's endpoint reached directly writes
// each event in one write (serve's stream.event).
type wholeEvents struct {
	r       *bufio.Reader
	c       io.Closer
	pending []byte
	err     error
}

func (w *wholeEvents) Read(p []byte) (int, error) {
	for len(w.pending) == 0 && w.err == nil {
		line, err := w.r.ReadBytes('\n')
		w.pending = append(w.pending, line...)
		w.err = err
		for err == nil && len(bytes.TrimRight(line, "\r\n")) > 0 {
			line, err = w.r.ReadBytes('\n')
			w.pending = append(w.pending, line...)
			w.err = err
		}
	}
	if len(w.pending) == 0 {
		return 0, w.err
	}
	n := copy(p, w.pending)
	w.pending = w.pending[n:]
	return n, nil
}

func (w *wholeEvents) Close() error { return w.c.Close() }
