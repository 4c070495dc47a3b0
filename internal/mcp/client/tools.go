package client

import (
	"context"
	"encoding/json"
	"fmt"

	"tai/internal/mcp/wire"
)

// maxToolPages bounds tools/list pagination: a server that keeps handing
// out cursors is broken, not large.
const maxToolPages = 100

// ListTools returns every tool, following nextCursor until the server gives
// none. A repeated cursor or more than 100 pages is an error. Each page is
// one request bounded by the call timeout.
func (c *Client) ListTools(ctx context.Context) ([]wire.Tool, error) {
	var tools []wire.Tool
	seen := map[string]bool{}
	cursor := ""
	for page := 1; ; page++ {
		if page > maxToolPages {
			return nil, fmt.Errorf("tools/list: more than %d pages; the server's pagination does not end", maxToolPages)
		}
		var res wire.ListToolsResult
		rctx, cancel := c.withTimeout(ctx, wire.MethodToolsList)
		err := c.request(rctx, wire.MethodToolsList, wire.ListToolsParams{Cursor: cursor}, &res)
		cancel()
		if err != nil {
			return nil, err
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, nil
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("tools/list: the server repeated cursor %q; its pagination loops",
				wire.Printable(res.NextCursor, 60))
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// CallTool calls one tool with arguments passed through untouched (nil
// sends none). A tool that ran and failed is a result with IsError set and
// a nil error; a JSON-RPC refusal is a *wire.Error. When the call timeout
// passes or ctx ends first, tai sends notifications/cancelled and returns
// a local failure (*TimeoutError for the timeout).
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage) (*wire.CallToolResult, error) {
	cctx, cancel := c.withTimeout(ctx, wire.MethodToolsCall+" "+name)
	defer cancel()
	var res wire.CallToolResult
	id, err := c.requestID(cctx, wire.MethodToolsCall, wire.CallToolParams{Name: name, Arguments: args}, &res)
	if err != nil {
		if cctx.Err() != nil {
			c.cancelRequest(id, err)
		}
		return nil, err
	}
	return &res, nil
}

// Ping checks that the server answers, within the call timeout.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := c.withTimeout(ctx, wire.MethodPing)
	defer cancel()
	return c.request(ctx, wire.MethodPing, json.RawMessage("{}"), nil)
}

// cancelRequest tells the server tai gave up on request id; the caller has
// already failed locally, so a send failure is only noted.
func (c *Client) cancelRequest(id wire.ID, why error) {
	ctx, cancel := context.WithTimeout(c.stopCtx, cancelSendTimeout)
	defer cancel()
	params := wire.CancelledParams{RequestID: id, Reason: wire.Printable(why.Error(), 200)}
	if err := c.notify(ctx, wire.MethodCancelled, params); err != nil {
		c.log.note("could not cancel request " + id.String() + ": " + err.Error())
	}
}
