package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

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
	What string // the list method, when not tools/list
}

func (e *ListCapError) Error() string {
	what := "its tool list"
	if e.What != "" {
		what = "its " + e.What + " list"
	}
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
	ttl := time.Duration(-1) // the shortest ttlMs of the pages; -1 for none
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
		if res.TTLMs != nil && (ttl < 0 || time.Duration(*res.TTLMs)*time.Millisecond < ttl) {
			ttl = max(0, time.Duration(*res.TTLMs)*time.Millisecond)
		}
		if res.NextCursor == "" {
			c.listed(ttl)
			c.noteTaskTools(tools)
			return c.checkParamHeaders(tools), nil
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
		ResultType string            `json:"resultType,omitempty"`
		TTLMs      *int64            `json:"ttlMs,omitempty"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return wire.ListToolsResult{}, fmt.Errorf("%s: reading the result: %w", wire.MethodToolsList, err)
	}
	if err := wire.CheckResultType(p.ResultType); err != nil {
		return wire.ListToolsResult{}, fmt.Errorf("%s: %w", wire.MethodToolsList, err)
	}
	if len(p.Tools) > room {
		return wire.ListToolsResult{}, &ListCapError{Cap: "MCP_MAX_LISTED_TOOLS", Page: page}
	}
	res := wire.ListToolsResult{Tools: make([]wire.Tool, len(p.Tools)), NextCursor: p.NextCursor, TTLMs: p.TTLMs}
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
// a nil error; a JSON-RPC refusal is a *wire.Error. The call carries a
// progress token: MCP_CALL_TIMEOUT bounds the silence between progress
// notifications, MCP_CALL_MAX_TOTAL the whole call. When a limit passes
// or ctx ends first, tai sends notifications/cancelled and returns a local
// failure (*TimeoutError for a limit).
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage) (*wire.CallToolResult, error) {
	c.mu.Lock()
	why, left := c.leftOut[name]
	asTask := c.taskTools[name]
	if c.optionalTasks[name] {
		// A tool that may run as a task does so where the caller can let
		// a long call go to the background (WithDetach), rather than wait
		// on it until its timeout.
		after, _ := ctx.Value(detachKey{}).(time.Duration)
		asTask = after > 0
	}
	c.mu.Unlock()
	if left {
		return nil, fmt.Errorf("%s %s: tai left this tool out of the server's list: %s", wire.MethodToolsCall, wire.Printable(name, 64), why)
	}
	if asTask {
		return c.callAsTask(ctx, name, args)
	}
	var raw json.RawMessage
	if err := c.longRequest(ctx, wire.MethodToolsCall, name, wire.CallToolParams{Name: name, Arguments: args}, &raw); err != nil {
		return nil, err
	}
	if created, ok := createdTaskV2(raw); ok && c.Era().Name == wire.StatelessEra.Name {
		return c.taskV2(ctx, name, created)
	}
	var res wire.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%s %s: reading the result: %w", wire.MethodToolsCall, name, err)
	}
	if err := wire.CheckResultType(res.ResultType); err != nil {
		return nil, fmt.Errorf("%s %s: %w", wire.MethodToolsCall, name, err)
	}
	return &res, nil
}

// checkParamHeaders keeps, in the stateless era over HTTP, each tool's
// x-mcp-header annotations for its calls, and drops the tools whose
// annotations break the rules, noting why in the server's log.
func (c *Client) checkParamHeaders(tools []wire.Tool) []wire.Tool {
	if !c.t.closesToCancel() { // the stateless era over HTTP, and only there
		return tools
	}
	xh := map[string][]paramHeader{}
	left := map[string]string{}
	kept := tools[:0]
	for _, t := range tools {
		hs, err := paramHeaders(t.InputSchema)
		if err != nil {
			left[t.Name] = err.Error()
			c.log.note("left out tool " + wire.Printable(t.Name, 64) + ": " + err.Error())
			continue
		}
		if len(hs) > 0 {
			xh[t.Name] = hs
		}
		kept = append(kept, t)
	}
	c.mu.Lock()
	c.xh, c.leftOut = xh, left
	c.mu.Unlock()
	return kept
}

// paramHeaders implements peer.
func (c *Client) paramHeaders(tool string) []paramHeader {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.xh[tool]
}

// listed records when the tool list just read goes stale: ttl after now.
// A ttl of zero or less (no ttlMs, or 0: stale at once) records nothing,
// leaving the list to the caller's own refresh.
func (c *Client) listed(ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listedUntil = time.Time{}
	if ttl > 0 {
		c.listedUntil = time.Now().Add(ttl)
	}
}

// ListedUntil returns when the last full tools/list goes stale by the
// server's ttlMs (the shortest of its pages), and false when the server
// gave none or 0.
func (c *Client) ListedUntil() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listedUntil, !c.listedUntil.IsZero()
}

// Ping checks that the server answers, within the call timeout. The
// stateless era has no ping: there it sends server/discover.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := c.withTimeout(ctx, wire.MethodPing)
	defer cancel()
	c.mu.Lock()
	meta := c.meta
	c.mu.Unlock()
	if meta != nil {
		params, err := wire.WithMeta(nil, meta)
		if err != nil {
			return err
		}
		return c.request(ctx, wire.MethodDiscover, params, nil)
	}
	return c.request(ctx, wire.MethodPing, json.RawMessage("{}"), nil)
}

// cancelRequest tells the server tai gave up on request id; the caller has
// already failed locally, so a send failure is only noted. In the
// stateless era over HTTP the closed reply already said so.
func (c *Client) cancelRequest(id wire.ID, why error) {
	if c.t.closesToCancel() {
		return
	}
	ctx, cancel := context.WithTimeout(c.stopCtx, cancelSendTimeout)
	defer cancel()
	params := wire.CancelledParams{RequestID: id, Reason: wire.Printable(why.Error(), 200)}
	if err := c.notify(ctx, wire.MethodCancelled, params); err != nil {
		c.log.note("could not cancel request " + id.String() + ": " + err.Error())
	}
}

// noteTaskTools records which listed tools must be called as tasks.
func (c *Client) noteTaskTools(tools []wire.Tool) {
	caps := c.Server().Capabilities
	need, may := map[string]bool{}, map[string]bool{}
	for _, t := range tools {
		switch taskSupport(caps, t) {
		case "required":
			need[t.Name] = true
		case "optional":
			may[t.Name] = true
		}
	}
	c.mu.Lock()
	c.taskTools, c.optionalTasks = need, may
	c.mu.Unlock()
}
