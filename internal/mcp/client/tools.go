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

// ListCapError is a tools/list that passed one of the listing caps:
// MCP_MAX_LISTED_TOOLS, MCP_MAX_LIST_BYTES or MCP_MAX_TOOL_BYTES. The
// client stopped asking for pages there and returns none of the tools.
type ListCapError struct {
	Cap  string // the MCP_* name
	Page int    // the page that passed it
	Tool string // for MCP_MAX_TOOL_BYTES, the tool's name
}

func (e *ListCapError) Error() string {
	what := "its tool list"
	if e.Tool != "" {
		what = fmt.Sprintf("its tool %q", wire.Printable(e.Tool, 60))
	}
	c, _ := wire.Lookup(e.Cap)
	return fmt.Sprintf("%s passed %s = %s (%s); tai stopped reading at page %d", what, c.Name, c.Value, c.Meaning, e.Page)
}

// ListTools returns every tool, following nextCursor until the server gives
// none. A repeated cursor or more than 100 pages is an error, and so is a
// list past a listing cap (*ListCapError): what tai holds of a list is
// bounded by MCP_MAX_LIST_BYTES plus the one page that passed it. Each page
// is one request bounded by the call timeout.
func (c *Client) ListTools(ctx context.Context) ([]wire.Tool, error) {
	var tools []wire.Tool
	seen := map[string]bool{}
	cursor, size := "", 0
	for page := 1; ; page++ {
		if page > maxToolPages {
			return nil, fmt.Errorf("tools/list: more than %d pages; the server's pagination does not end", maxToolPages)
		}
		var raw json.RawMessage
		rctx, cancel := c.withTimeout(ctx, wire.MethodToolsList)
		err := c.request(rctx, wire.MethodToolsList, wire.ListToolsParams{Cursor: cursor}, &raw)
		cancel()
		if err != nil {
			return nil, err
		}
		if size += len(raw); size > wire.MaxListBytes {
			return nil, &ListCapError{Cap: "MCP_MAX_LIST_BYTES", Page: page}
		}
		res, err := readPage(raw, wire.MaxListedTools-len(tools), page)
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

// readPage decodes one page of tools/list that may hold at most room more
// tools, each within MCP_MAX_TOOL_BYTES. The tools are counted and measured
// before they are decoded.
func readPage(raw json.RawMessage, room, page int) (wire.ListToolsResult, error) {
	var p struct {
		Tools      []json.RawMessage `json:"tools"`
		NextCursor string            `json:"nextCursor,omitempty"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return wire.ListToolsResult{}, fmt.Errorf("%s: reading the result: %w", wire.MethodToolsList, err)
	}
	if len(p.Tools) > room {
		return wire.ListToolsResult{}, &ListCapError{Cap: "MCP_MAX_LISTED_TOOLS", Page: page}
	}
	res := wire.ListToolsResult{Tools: make([]wire.Tool, len(p.Tools)), NextCursor: p.NextCursor}
	for i, b := range p.Tools {
		if err := json.Unmarshal(b, &res.Tools[i]); err != nil {
			return wire.ListToolsResult{}, fmt.Errorf("%s: reading the result: %w", wire.MethodToolsList, err)
		}
		if len(b) > wire.MaxToolBytes {
			return wire.ListToolsResult{}, &ListCapError{Cap: "MCP_MAX_TOOL_BYTES", Page: page, Tool: res.Tools[i].Name}
		}
	}
	return res, nil
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
