// Command benchclient measures tai's MCP client and the official Go SDK's
// client side by side against the same Go SDK server (goserver): the cost
// of one tools/call to a trivial tool over stdio and over Streamable HTTP
// (JSON and event-stream replies), and the cost of connecting (spawn or
// dial plus handshake, then close), in each protocol era: the stateless
// one (2026-07-28; over HTTP the server runs its stateless handler) and
// the session one (2025-11-25, both clients pinned to it). It prints a
// Markdown table.
//
// Usage: benchclient -server path/to/goserver
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tai/internal/mcp/client"
)

var server = flag.String("server", "", "the goserver binary")

// leg is one row: the same work done by both clients.
type leg struct {
	name     string
	tai, sdk func(b *testing.B)
}

func main() {
	flag.Parse()
	if *server == "" {
		log.Fatal("benchclient: -server is required")
	}
	jsonURL, stopJSON := startHTTP("-json")
	defer stopJSON()
	sseURL, stopSSE := startHTTP()
	defer stopSSE()
	statelessURL, stopStateless := startHTTP("-json", "-stateless")
	defer stopStateless()
	stdio := func() client.Transport { return client.Stdio{Command: *server} }
	httpAt := func(url string) func() client.Transport {
		return func() client.Transport { return client.HTTP{URL: url} }
	}

	legs := []leg{
		{"tools/call over stdio, stateless era", taiCall(stdio, stateless), sdkCall(stdioSDK, stateless)},
		{"tools/call over stdio, session era", taiCall(stdio, session), sdkCall(stdioSDK, session)},
		{"tools/call over HTTP JSON, stateless era", taiCall(httpAt(statelessURL), stateless), sdkCall(httpSDK(statelessURL), stateless)},
		{"tools/call over HTTP JSON, session era", taiCall(httpAt(jsonURL), session), sdkCall(httpSDK(jsonURL), session)},
		{"tools/call over HTTP SSE, session era", taiCall(httpAt(sseURL), session), sdkCall(httpSDK(sseURL), session)},
		{"spawn + handshake + close, stdio, stateless era", taiConnect(stdio, stateless), sdkConnect(stdioSDK, stateless)},
		{"spawn + handshake + close, stdio, session era", taiConnect(stdio, session), sdkConnect(stdioSDK, session)},
		{"handshake + close, HTTP JSON, stateless era", taiConnect(httpAt(statelessURL), stateless), sdkConnect(httpSDK(statelessURL), stateless)},
		{"handshake + close, HTTP JSON, session era", taiConnect(httpAt(jsonURL), session), sdkConnect(httpSDK(jsonURL), session)},
	}
	fmt.Println("| leg | tai | Go SDK v1.8.0 | tai / SDK | tai allocs | SDK allocs |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, l := range legs {
		t := testing.Benchmark(l.tai)
		s := testing.Benchmark(l.sdk)
		fmt.Printf("| %s | %s | %s | %.2f | %d | %d |\n", l.name, perOp(t), perOp(s),
			float64(t.NsPerOp())/float64(s.NsPerOp()), t.AllocsPerOp(), s.AllocsPerOp())
	}
}

func perOp(r testing.BenchmarkResult) string {
	ns := float64(r.NsPerOp())
	if ns >= 1e6 {
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
	return fmt.Sprintf("%.1f µs", ns/1e3)
}

// era is how each client opens: tai with its remembered verdict (the
// stateless era is what it probes for first; the session verdict sends
// initialize at once), the SDK with the version it offers.
type era struct{ tai, sdk string }

var (
	stateless = era{"", "2026-07-28"}
	session   = era{"session", "2025-11-25"}
)

// startHTTP runs goserver over HTTP on a loopback port with flags.
func startHTTP(flags ...string) (string, func()) {
	args := append([]string{"-http", "127.0.0.1:0"}, flags...)
	cmd := exec.Command(*server, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		log.Fatalf("goserver: %v", err)
	}
	return strings.TrimSpace(url), func() { cmd.Process.Kill(); cmd.Wait() }
}

var echoArgs = json.RawMessage(`{"text":"x"}`)

func taiCall(tr func() client.Transport, e era) func(*testing.B) {
	return func(b *testing.B) {
		ctx := context.Background()
		c, err := client.Connect(ctx, client.Options{Transport: tr(), Era: e.tai})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		if v := c.Server().ProtocolVersion; v != e.sdk {
			b.Fatalf("tai's client settled on %s, not %s", v, e.sdk)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if res, err := c.CallTool(ctx, "echo", echoArgs); err != nil || res.IsError {
				b.Fatal(res, err)
			}
		}
	}
}

func taiConnect(tr func() client.Transport, e era) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			c, err := client.Connect(context.Background(), client.Options{Transport: tr(), Era: e.tai})
			if err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	}
}

// The SDK's transports, configured to do what tai does: no standalone GET
// stream on HTTP.
func stdioSDK() mcp.Transport { return &mcp.CommandTransport{Command: exec.Command(*server)} }

func httpSDK(url string) func() mcp.Transport {
	return func() mcp.Transport {
		return &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}
	}
}

func sdkSession(tr mcp.Transport, e era) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	return c.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: e.sdk})
}

func sdkCall(tr func() mcp.Transport, e era) func(*testing.B) {
	return func(b *testing.B) {
		ctx := context.Background()
		s, err := sdkSession(tr(), e)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		if v := s.InitializeResult().ProtocolVersion; v != e.sdk {
			b.Fatalf("the SDK's client settled on %s, not %s", v, e.sdk)
		}
		params := &mcp.CallToolParams{Name: "echo", Arguments: echoArgs}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if res, err := s.CallTool(ctx, params); err != nil || res.IsError {
				b.Fatal(res, err)
			}
		}
	}
}

func sdkConnect(tr func() mcp.Transport, e era) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			s, err := sdkSession(tr(), e)
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	}
}
