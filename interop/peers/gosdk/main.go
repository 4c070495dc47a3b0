// Command gosdk is make bench-serve's peer on the official Go SDK, with
// JSON replies as tai sends; -stateless serves without sessions, which the
// SDK needs to speak the stateless era (2026-07-28) over HTTP.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tai/interop/internal/peer"
)

func main() {
	stateless := flag.Bool("stateless", false, "serve without sessions")
	flag.Parse()
	ln := peer.Listen()
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: true, Stateless: *stateless})
	log.Fatal(http.Serve(ln, h))
}
