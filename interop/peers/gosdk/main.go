// Command gosdk is make bench-serve's peer on the official Go SDK, with
// JSON replies as tai sends.
package main

import (
	"context"
	"log"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tai/interop/internal/peer"
)

func main() {
	ln := peer.Listen()
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	log.Fatal(http.Serve(ln, h))
}
