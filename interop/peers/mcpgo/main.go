// Command mcpgo is make bench-serve's peer on mark3labs/mcp-go: by default
// with its default session handling (ids issued, not checked), with
// -stateful checking session ids as tai does.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"tai/interop/internal/peer"
)

func main() {
	stateful := flag.Bool("stateful", false, "check session ids")
	ln := peer.Listen()
	s := server.NewMCPServer("mcpgo", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Returns its text."), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	h := server.NewStreamableHTTPServer(s, server.WithStateful(*stateful), server.WithDisableStreaming(true))
	log.Fatal(http.Serve(ln, h))
}
