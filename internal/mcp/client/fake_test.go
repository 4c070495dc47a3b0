package client

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"tai/internal/mcp/wire"
)

// fakeServer is the scripted MCP server of these tests. The stdio tests run
// it in a re-executed test binary (see TestMain), the HTTP tests inside an
// httptest handler. script picks connection-wide behaviour; tool names pick
// what one call does.
type fakeServer struct {
	script string
	send   func(*wire.Message)
	raw    func(string) // writes one line or body exactly as given
	stderr func(string)

	mu       sync.Mutex
	gathered []*wire.Message   // "gather" calls held back
	asked    map[string]string // server request id -> answer seen
	waiting  *wire.Message     // an "answers" call held until both arrive
	refused  bool              // "stateless-refuse-once" refused its first discover
}

func (f *fakeServer) result(id wire.ID, v any) {
	m, err := wire.NewResult(id, v)
	if err != nil {
		panic(err)
	}
	f.send(m)
}

func text(s string, isError bool) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}, "isError": isError}
}

// handle reacts to one message from the client.
func (f *fakeServer) handle(m *wire.Message) {
	switch {
	case m.IsResponse():
		f.gotAnswer(m)
	case m.Method == wire.MethodDiscover:
		f.discover(m)
	case m.Method == wire.MethodInitialize:
		f.initialize(m)
	case m.Method == wire.MethodCancelled:
		var p wire.CancelledParams
		json.Unmarshal(m.Params, &p)
		f.stderr(fmt.Sprintf("cancelled %s: %s", p.RequestID, p.Reason))
	case m.Method == wire.MethodPing:
		f.result(m.ID, struct{}{})
	case m.Method == wire.MethodToolsList && f.claimMissing(m):
	case m.Method == wire.MethodToolsList:
		f.listTools(m)
	case m.Method == wire.MethodToolsCall && f.claimMissing(m):
	case m.Method == wire.MethodToolsCall:
		f.call(m)
	case m.IsRequest():
		f.send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMethodNotFound, Message: "no " + m.Method}))
	}
}

func mustID(raw string) wire.ID {
	var id wire.ID
	if err := id.UnmarshalJSON([]byte(raw)); err != nil {
		panic(err)
	}
	return id
}

// stateless reports whether the script is a stateless-era server.
func (f *fakeServer) stateless() bool { return strings.HasPrefix(f.script, "stateless") }

// discover answers server/discover as the script's server would: a
// stateless one with its result, "future" and "dual" with -32022, a
// session-era one with -32601 (or, for "silent-discover", not at all, and
// for "exit-on-discover" by exiting).
func (f *fakeServer) discover(m *wire.Message) {
	claim := wire.ReadClaim(m.Params)
	f.stderr(fmt.Sprintf("discover %s missing %v", claim.Version, claim.Missing))
	unsupported := func(supported ...string) {
		data, _ := json.Marshal(wire.UnsupportedVersion{Supported: supported, Requested: claim.Version})
		f.send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeUnsupportedProtocol, Message: "Unsupported protocol version", Data: data}))
	}
	switch {
	case f.script == "future":
		unsupported("2027-01-01")
	case f.script == "stateless-refuse-once" && !f.refused:
		f.refused = true
		unsupported(wire.StatelessVersion)
	case f.script == "dual":
		unsupported("2025-11-25", "2025-06-18")
	case f.script == "discover-legacy-only":
		f.result(m.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{"2025-11-25", "2025-06-18"},
			"capabilities": map[string]any{"tools": map[string]any{}}, "ttlMs": 0, "cacheScope": "public"})
	case f.script == "silent-discover":
	case f.script == "exit-on-discover":
		f.stderr("unknown request before initialize")
		os.Exit(1)
	case f.stateless():
		f.result(m.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{wire.StatelessVersion},
			"capabilities": map[string]any{"tools": map[string]any{}}, "ttlMs": 0, "cacheScope": "public",
			"_meta": map[string]any{wire.MetaServerInfo: map[string]any{"name": "fake-stateless", "version": "2"}}})
	default:
		f.send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMethodNotFound, Message: "no " + m.Method}))
	}
}

// claimMissing answers -32602 for a stateless server's request that lacks
// the _meta claim, and reports whether it did.
func (f *fakeServer) claimMissing(m *wire.Message) bool {
	if !f.stateless() {
		return false
	}
	if c := wire.ReadClaim(m.Params); c.Present && len(c.Missing) == 0 && c.Version == wire.StatelessVersion {
		return false
	}
	f.send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "no _meta claim"}))
	return true
}

func (f *fakeServer) initialize(m *wire.Message) {
	if f.script == "stateless-only" {
		data, _ := json.Marshal(wire.UnsupportedVersion{Supported: []string{wire.StatelessVersion}, Requested: "2025-11-25"})
		f.send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeUnsupportedProtocol, Message: "Unsupported protocol version", Data: data}))
		return
	}
	var p wire.InitializeParams
	json.Unmarshal(m.Params, &p)
	f.stderr(fmt.Sprintf("client %s %s offers %s caps %s", p.ClientInfo.Name, p.ClientInfo.Version, p.ProtocolVersion, p.Capabilities))
	version, caps := p.ProtocolVersion, `{"tools":{}}`
	switch f.script {
	case "no-tools":
		caps = `{"prompts":{}}`
	case "old-version":
		version = "2024-10-07"
	case "legacy":
		version = "2024-11-05"
	case "downgrade":
		version = "2025-03-26"
	case "invalid-reply":
		f.raw(`{"jsonrpc":"2.0","id":` + m.ID.String() + `}`) // neither result nor error
		return
	case "garbage-reply":
		f.raw(`{"jsonrpc":"2.0","id":` + m.ID.String() + `,"result":{"protocolVersion":`)
		return
	case "mute":
		return
	}
	f.result(m.ID, map[string]any{
		"protocolVersion": version,
		"capabilities":    json.RawMessage(caps),
		"serverInfo":      map[string]any{"name": "fake", "version": "1"},
	})
}

func (f *fakeServer) listTools(m *wire.Message) {
	var p wire.ListToolsParams
	json.Unmarshal(m.Params, &p)
	page := map[string]any{"tools": []any{map[string]any{
		"name": "t" + p.Cursor, "inputSchema": map[string]any{"type": "object"},
		"annotations": map[string]any{"readOnlyHint": true}}}}
	switch f.script {
	case "pages":
		next := map[string]string{"": "p2", "p2": "p3"}[p.Cursor]
		if next != "" {
			page["nextCursor"] = next
		}
	case "many-tools", "fat-pages", "fat-tool", "thousand":
		page = listPage(f.script, p.Cursor)
	case "loop-cursor":
		page["nextCursor"] = "again"
	case "stateless-ttl":
		page["ttlMs"], page["cacheScope"] = 250, "public"
	case "stateless-xh":
		page["tools"] = []any{
			json.RawMessage(`{"name":"echo","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"},"deep":{"type":"object","properties":{"on":{"type":"boolean","x-mcp-header":"On"}}},"q":{"type":"string"}}}}`),
			json.RawMessage(`{"name":"in_items","inputSchema":{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}}`),
			json.RawMessage(`{"name":"on_number","inputSchema":{"type":"object","properties":{"f":{"type":"number","x-mcp-header":"F"}}}}`),
			json.RawMessage(`{"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Dup"},"b":{"type":"string","x-mcp-header":"dup"}}}}`),
			json.RawMessage(`{"name":"colon","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A:B"}}}}`),
		}
	case "stateless-input":
		page["resultType"] = "input_required"
	case "endless":
		page["nextCursor"] = p.Cursor + "x"
	}
	f.result(m.ID, page)
}

// listPage is one of 50 pages of a server that lists too much:
// many-tools has 400 small tools a page, fat-pages 32 tools of 32 KiB, and
// fat-tool one tool of 80 KiB on its first page. thousand lists exactly
// MCP_MAX_LISTED_TOOLS over 4 pages.
func listPage(script, cursor string) map[string]any {
	n, _ := strconv.Atoi(cursor)
	count, desc, pages := 400, "a tool", 50
	switch script {
	case "fat-pages":
		count, desc = 32, strings.Repeat("d", 32<<10)
	case "fat-tool":
		count = 2
	case "thousand":
		count, pages = 250, 4
	}
	var tools []any
	for i := range count {
		d := desc
		if script == "fat-tool" && i == 1 {
			d = strings.Repeat("d", 80<<10)
		}
		tools = append(tools, map[string]any{"name": fmt.Sprintf("t%d_%d", n, i), "description": d,
			"inputSchema": map[string]any{"type": "object"}})
	}
	page := map[string]any{"tools": tools}
	if n < pages-1 {
		page["nextCursor"] = strconv.Itoa(n + 1)
	}
	return page
}

func (f *fakeServer) call(m *wire.Message) {
	var p wire.CallToolParams
	json.Unmarshal(m.Params, &p)
	switch p.Name {
	case "echo":
		f.result(m.ID, text(string(p.Arguments), false))
	case "fail":
		f.result(m.ID, text("the tool failed", true))
	case "exit":
		f.stderr("dying on purpose")
		os.Exit(3)
	case "hang":
		f.stderr("hanging")
	case "env":
		f.result(m.ID, text(strings.Join(os.Environ(), "\n"), false))
	case "big":
		f.result(m.ID, text(strings.Repeat("b", 20<<20), false))
	case "gather":
		f.gather(m)
	case "answers":
		f.send(&wire.Message{ID: mustID(`"s1"`), Method: wire.MethodPing})
		f.send(&wire.Message{ID: mustID(`"s2"`), Method: "roots/list", Params: []byte(`{}`)})
		f.mu.Lock()
		f.waiting = m
		f.mu.Unlock()
		f.gotAnswer(nil)
	default:
		f.send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "unknown tool " + p.Name}))
	}
}

// gather holds calls until three are in flight, then answers them in
// reverse order: only a client with several calls in flight gets answers.
func (f *fakeServer) gather(m *wire.Message) {
	f.mu.Lock()
	f.gathered = append(f.gathered, m)
	ready := len(f.gathered) == 3
	f.mu.Unlock()
	if !ready {
		return
	}
	for i := 2; i >= 0; i-- {
		g := f.gathered[i]
		var p wire.CallToolParams
		json.Unmarshal(g.Params, &p)
		f.result(g.ID, text(string(p.Arguments), false))
	}
}

// gotAnswer records the client's answers to the server's own requests and
// releases a waiting "answers" call once both are in.
func (f *fakeServer) gotAnswer(m *wire.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.asked == nil {
		f.asked = map[string]string{}
	}
	if m != nil {
		out, _ := wire.Encode(&wire.Message{ID: m.ID, Result: m.Result, Error: m.Error})
		f.asked[m.ID.String()] = string(out)
	}
	if f.waiting == nil || len(f.asked) < 2 {
		return
	}
	var lines []string
	for _, v := range f.asked {
		lines = append(lines, v)
	}
	sort.Strings(lines)
	f.result(f.waiting.ID, text(strings.Join(lines, "\n"), false))
	f.waiting = nil
}
