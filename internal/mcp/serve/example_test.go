package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"

	"tai/internal/mcp/client"
	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

// A served tool, reached by tai's own MCP client over Streamable HTTP
// with the Bearer key: the server validates the arguments against the
// tool's schema before Run, and the client speaks whichever era the
// server offers (here the newest).
func Example() {
	echo := &serve.Tool{
		Name:        "echo",
		Description: "Echo a message.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
		Run: func(ctx context.Context, call serve.Call) (*wire.CallToolResult, error) {
			var in struct{ Message string }
			if err := json.Unmarshal(call.Args, &in); err != nil {
				return nil, err
			}
			block, _ := json.Marshal(map[string]string{"type": "text", "text": in.Message})
			return &wire.CallToolResult{Content: []json.RawMessage{block}}, nil
		},
	}
	srv, err := serve.New(serve.Options{Key: "example-key", Tools: []*serve.Tool{echo}, Loopback: true, Version: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	ctx := context.Background()
	c, err := client.Connect(ctx, client.Options{Transport: client.HTTP{URL: hs.URL + serve.Path,
		Headers: map[string]string{"Authorization": "Bearer example-key"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	list, err := c.ListTools(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("tools:", list[0].Name)
	res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"message":"hi"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("echo:", res.Text())
	_, err = c.CallTool(ctx, "echo", json.RawMessage(`{"message":7}`))
	fmt.Println("bad arguments:", err != nil)
	// Output:
	// tools: echo
	// echo: hi
	// bad arguments: true
}
