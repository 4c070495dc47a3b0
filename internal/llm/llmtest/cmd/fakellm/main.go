// Command fakellm serves a llmtest script over HTTP, for tests that run
// tai in another process (a REPL under a pseudo-terminal, the MCP
// Inspector talking to `tai --serve-mcp`).
//
//	fakellm -script FILE [-addr 127.0.0.1:0] [-requests FILE]
//
// It speaks both the OpenAI and the Anthropic wire (see package llmtest),
// prints its root URL ("http://127.0.0.1:PORT") as the first line of
// stdout once it is listening, and serves until SIGINT or SIGTERM. Point
// tai at it with TAI_BASE_URL=URL/v1 for openai-style providers, URL for
// anthropic. With -requests, each request received is appended to FILE
// as one JSON line (llmtest.Request) as it arrives.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"tai/internal/llm/llmtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	scriptPath := fs.String("script", "", "JSON script to serve (required)")
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	logPath := fs.String("requests", "", "append each request to this file as a JSON line")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *scriptPath == "" {
		return errors.New("-script is required")
	}
	script, err := llmtest.LoadScript(*scriptPath)
	if err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q: want a loopback IP and port, such as 127.0.0.1:0", *addr)
	}
	fake := llmtest.NewFake(script)
	if *logPath != "" {
		log, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("opening request log: %w", err)
		}
		defer log.Close()
		fake.OnRequest = logTo(log)
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: fake}
	fmt.Fprintf(stdout, "http://%s\n", l.Addr())
	go func() {
		<-ctx.Done()
		fake.Stop()
		srv.Close()
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// logTo writes each request as one JSON line; requests may arrive at once.
// Keys are replaced by "[redacted]": a tai run against the fake may carry
// a real key from the developer's environment.
func logTo(w io.Writer) func(llmtest.Request) {
	var mu sync.Mutex
	enc := json.NewEncoder(w)
	return func(r llmtest.Request) {
		for _, h := range []string{"Authorization", "X-Api-Key"} {
			if r.Header.Get(h) != "" {
				r.Header.Set(h, "[redacted]")
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "fakellm: logging request:", err)
		}
	}
}
