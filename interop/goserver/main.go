// Command goserver is an MCP server built on the official Go SDK, the
// reference peer that tai's client is checked and benchmarked against.
// With no flags it serves stdio; with -http it serves Streamable HTTP on a
// loopback address, replying as an event stream or, with -json, in JSON,
// and with -stateless without sessions.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sum struct {
	Sum int `json:"sum"`
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "goserver", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two integers."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, sum, error) {
			return nil, sum{in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails as a tool."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("failing on purpose: %s", in.Text)
		})
	// Enough tools that a client sees several of them.
	for i := range 5 {
		mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("noop_%d", i), Description: strings.Repeat("noop ", i+1)},
			func(ctx context.Context, _ *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	return s
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this loopback address (127.0.0.1:0 picks a port, printed on stdout)")
	jsonReplies := flag.Bool("json", false, "reply in JSON instead of an event stream")
	stateless := flag.Bool("stateless", false, "serve HTTP without sessions: the SDK then speaks 2026-07-28 there too")
	flag.Parse()
	if *addr == "" {
		if err := newServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := listen(*addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	os.Stdout.Sync()
	log.Fatal(http.Serve(ln, handler(*jsonReplies, *stateless)))
}

// listen refuses anything but a loopback address.
func listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("goserver listens on loopback only, not %q", host)
	}
	return net.Listen("tcp", addr)
}

// handler serves one shared server over Streamable HTTP; stateless
// serves it without sessions, which the SDK needs to speak the stateless
// era (2026-07-28) over HTTP.
func handler(jsonReplies, stateless bool) http.Handler {
	s := newServer()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{JSONResponse: jsonReplies, Stateless: stateless})
}
