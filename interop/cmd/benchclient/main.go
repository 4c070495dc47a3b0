// Command benchclient measures tai's MCP client and the official Go SDK's
// client side by side against the same Go SDK server (goserver): the cost
// of one tools/call to a trivial tool over stdio and over Streamable HTTP
// (JSON and event-stream replies), and the cost of connecting (spawn or
// dial plus handshake, then close). It prints a Markdown table.
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
	jsonURL, stopJSON := startHTTP(true)
	defer stopJSON()
	sseURL, stopSSE := startHTTP(false)
	defer stopSSE()

	legs := []leg{
		{"tools/call over stdio", taiCall(client.Stdio{Command: *server}), sdkCall(stdioSDK)},
		{"tools/call over HTTP, JSON replies", taiCall(client.HTTP{URL: jsonURL}), sdkCall(httpSDK(jsonURL))},
		{"tools/call over HTTP, SSE replies", taiCall(client.HTTP{URL: sseURL}), sdkCall(httpSDK(sseURL))},
		{"spawn + handshake + close, stdio", taiConnect(func() client.Transport { return client.Stdio{Command: *server} }), sdkConnect(stdioSDK)},
		{"handshake + close, HTTP JSON", taiConnect(func() client.Transport { return client.HTTP{URL: jsonURL} }), sdkConnect(httpSDK(jsonURL))},
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

// startHTTP runs goserver over HTTP on a loopback port.
func startHTTP(jsonReplies bool) (string, func()) {
	args := []string{"-http", "127.0.0.1:0"}
	if jsonReplies {
		args = append(args, "-json")
	}
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

func taiCall(tr client.Transport) func(*testing.B) {
	return func(b *testing.B) {
		ctx := context.Background()
		c, err := client.Connect(ctx, client.Options{Transport: tr})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if res, err := c.CallTool(ctx, "echo", echoArgs); err != nil || res.IsError {
				b.Fatal(res, err)
			}
		}
	}
}

func taiConnect(tr func() client.Transport) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			c, err := client.Connect(context.Background(), client.Options{Transport: tr()})
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

func sdkSession(tr mcp.Transport) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	return c.Connect(context.Background(), tr, nil)
}

func sdkCall(tr func() mcp.Transport) func(*testing.B) {
	return func(b *testing.B) {
		ctx := context.Background()
		s, err := sdkSession(tr())
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
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

func sdkConnect(tr func() mcp.Transport) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			s, err := sdkSession(tr())
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	}
}
