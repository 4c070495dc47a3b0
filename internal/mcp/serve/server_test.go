package serve

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tai/internal/catalog"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

func TestInitialize_OpensASession(t *testing.T) {
	h := start(t, Options{Tools: servedTools(), Version: "1.2.3"})
	r := h.do("POST", `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("HTTP %d %q", r.status, r.header.Get("Content-Type"))
	}
	if id := r.header.Get("Mcp-Session-Id"); !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
		t.Errorf("session id %q is not 128 random bits in hex", id)
	}
	var res map[string]any
	m := r.msg(t)
	if err := json.Unmarshal(m.Result, &res); err != nil || m.ID.String() != `"a"` {
		t.Fatalf("%s: %v", r.body, err)
	}
	want := map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}, "logging": map[string]any{}},
		"serverInfo": map[string]any{"name": "tai", "version": "1.2.3"}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("initialize result (-want +got):\n%s", d)
	}
	if other := h.open(); other == r.header.Get("Mcp-Session-Id") {
		t.Error("two initializes got one session id")
	}
}

func TestInitialize_VersionNegotiation(t *testing.T) {
	h := start(t, Options{})
	for offered, want := range map[string]string{
		"2025-11-25": "2025-11-25", "2025-03-26": "2025-03-26", "2026-07-28": "2025-11-25", "1999-01-01": "2025-11-25", "": "2025-11-25",
	} {
		r := h.do("POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+offered+`"}}`)
		var res wire.InitializeResult
		if err := json.Unmarshal(r.msg(t).Result, &res); err != nil || res.ProtocolVersion != want {
			t.Errorf("offered %q: answered %q (%v)", offered, res.ProtocolVersion, err)
		}
	}
}

func TestSession_Methods(t *testing.T) {
	h := start(t, Options{Tools: servedTools()})
	sess := h.open()
	if r := h.do("POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Mcp-Session-Id: "+sess); r.status != 202 || len(r.body) != 0 {
		t.Errorf("initialized: HTTP %d %q", r.status, r.body)
	}
	if r := h.request(sess, "ping", nil); r.status != 200 || string(r.body) != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Errorf("ping: HTTP %d %s", r.status, r.body)
	}
	if r := h.do("POST", `{"jsonrpc":"2.0","id":8,"method":"ping"}`, "Mcp-Session-Id: "+sess); r.status != 200 {
		t.Errorf("ping without MCP-Protocol-Version (2025-03-26): HTTP %d %s", r.status, r.body)
	}
}

// The served list is every native tool verbatim, then chat and
// completions; its length is read from the registry, never typed here.
func TestToolsList_EveryNativeToolVerbatim(t *testing.T) {
	h := start(t, Options{Tools: servedTools()})
	r := h.request(h.open(), "tools/list", nil)
	var res struct {
		Tools      []map[string]json.RawMessage `json:"tools"`
		NextCursor *string                      `json:"nextCursor"`
	}
	if err := json.Unmarshal(r.msg(t).Result, &res); err != nil {
		t.Fatal(err)
	}
	native := catalog.Native()
	if len(res.Tools) != len(native)+2 || res.NextCursor != nil {
		t.Fatalf("tools/list: %d tools (cursor %v), want the %d native tools plus chat and completions", len(res.Tools), res.NextCursor, len(native))
	}
	for i, nt := range native {
		got := res.Tools[i]
		var name, desc string
		json.Unmarshal(got["name"], &name)
		json.Unmarshal(got["description"], &desc)
		if name != nt.Name || desc != nt.Description || !sameJSON(t, got["inputSchema"], nt.Schema) {
			t.Errorf("tool %d: served %s differs from native %s", i, name, nt.Name)
		}
		if nt.Bridged() {
			t.Errorf("bridged tool %s is served", nt.Name)
		}
	}
	var last [2]string
	json.Unmarshal(res.Tools[len(native)]["name"], &last[0])
	json.Unmarshal(res.Tools[len(native)+1]["name"], &last[1])
	if last != [2]string{ChatName, CompletionsName} {
		t.Errorf("extras: %v", last)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return cmp.Equal(x, y)
}

func TestToolsCall_NativeTool(t *testing.T) {
	host, h, sess := servingNote(t, "hello from the file\n")
	res := h.call(sess, "read_file", map[string]any{"path": "note.txt"})
	if res.IsError || !strings.Contains(res.Text(), "hello from the file") {
		t.Fatalf("read_file: %+v", res)
	}
	// A tool that ran and failed is a result with isError.
	if res := h.call(sess, "read_file", map[string]any{"path": "missing.txt"}); !res.IsError {
		t.Errorf("read_file of a missing file: %+v", res)
	}
	rows, err := host.store.AuditEntries(t.Context(), vault.AuditQuery{Kind: "mcp-serve"})
	if err != nil || len(rows) != 2 || rows[0].Subject != "read_file" || rows[1].Outcome != "tool-error" {
		t.Errorf("audit rows: %+v %v", rows, err)
	}
}

func TestToolsCall_Refusals(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{Tools: servedTools()})
	sess := h.open()
	for _, tc := range []struct {
		name   string
		params any
		want   string
	}{
		{"unknown tool", map[string]any{"name": "no_such_tool"}, `unknown tool "no_such_tool"`},
		{"no name", map[string]any{"arguments": map[string]any{}}, "needs params.name"},
		{"arguments of the wrong type", map[string]any{"name": "read_file", "arguments": map[string]any{"path": 3}}, "read_file: argument"},
		{"arguments not an object", map[string]any{"name": "read_file", "arguments": "x"}, "read_file:"},
		{"unknown argument", map[string]any{"name": "read_file", "arguments": map[string]any{"path": "a", "color": "red"}}, "color"},
		{"missing argument", map[string]any{"name": "read_file", "arguments": map[string]any{}}, "path"},
		{"params not an object", []int{1}, "params must be an object"},
		{"name of the wrong type", map[string]any{"name": 5}, "tools/call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, e := h.rpcError(sess, "tools/call", tc.params)
			if status != 200 || e.Code != wire.CodeInvalidParams || !strings.Contains(e.Message, tc.want) {
				t.Errorf("HTTP %d, error %d %q; want -32602 naming %q", status, e.Code, e.Message, tc.want)
			}
		})
	}
}

// TestUnknownMethod_WithOrWithoutSession: in the session era (no _meta
// claim), server/discover is one more unknown method, so a client probing
// with it and without a claim falls back; so are the methods of providers
// the server was not given.
func TestUnknownMethod_WithOrWithoutSession(t *testing.T) {
	h := start(t, Options{})
	sess := h.open()
	for _, hdr := range [][]string{
		{"Mcp-Session-Id: " + sess},
		nil,
		{"Mcp-Session-Id: 00000000000000000000000000000000"},
	} {
		for _, method := range []string{"server/discover", "resources/list", "resources/subscribe", "prompts/get", "completion/complete", "roots/list"} {
			r := h.do("POST", `{"jsonrpc":"2.0","id":3,"method":"`+method+`","params":{}}`, hdr...)
			if m := r.msg(t); r.status != 200 || m.Error == nil || m.Error.Code != wire.CodeMethodNotFound || m.ID.String() != "3" {
				t.Errorf("%s with %v: HTTP %d %s", method, hdr, r.status, r.body)
			}
		}
	}
	if r := h.do("POST", `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`, "Mcp-Session-Id: "+sess); r.status != 202 {
		t.Errorf("unknown notification: HTTP %d %s", r.status, r.body)
	}
}

func TestSessionBinding(t *testing.T) {
	checkLeaks(t)
	now := time.Unix(1_000_000, 0)
	h := start(t, Options{Tools: servedTools(), Now: func() time.Time { return now }})
	sess := h.open()
	for _, tc := range []struct {
		name    string
		headers []string
		body    string
		status  int
	}{
		{"known method, no session", nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 400},
		{"initialized, no session", nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 400},
		{"unknown session", []string{"Mcp-Session-Id: 0123"}, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 404},
		{"second initialize on a session", []string{"Mcp-Session-Id: " + sess}, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, 400},
		{"unsupported protocol version", []string{"Mcp-Session-Id: " + sess, "MCP-Protocol-Version: 2024-11-05"}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", tc.body, tc.headers...)
			if m := r.msg(t); r.status != tc.status || m.Error == nil || m.Error.Code != wire.CodeInvalidRequest {
				t.Errorf("HTTP %d %s; want %d with a JSON-RPC error", r.status, r.body, tc.status)
			}
		})
	}
	if r := h.request(sess, "ping", nil); r.status != 200 {
		t.Fatalf("the session did not survive the refusals: %d", r.status)
	}
	now = now.Add(wire.SessionIdle)
	if r := h.request(sess, "ping", nil); r.status != 404 {
		t.Errorf("a session idle for MCP_SESSION_IDLE: HTTP %d %s", r.status, r.body)
	}
	if n := h.srv.Sessions(); n != 0 {
		t.Errorf("%d sessions left after the expired one was dropped on access", n)
	}
}

func TestDelete_DropsTheSession(t *testing.T) {
	h := start(t, Options{})
	sess := h.open()
	if r := h.do("DELETE", "", "Mcp-Session-Id: "+sess); r.status != 200 {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	if r := h.request(sess, "ping", nil); r.status != 404 {
		t.Errorf("ping after DELETE: %d", r.status)
	}
	if r := h.do("DELETE", "", "Mcp-Session-Id: "+sess); r.status != 404 {
		t.Errorf("second DELETE: %d", r.status)
	}
	if r := h.do("DELETE", ""); r.status != 400 {
		t.Errorf("DELETE without a session: %d", r.status)
	}
}

func TestGet_IsNotAllowed(t *testing.T) {
	h := start(t, Options{})
	sess := h.open()
	for _, method := range []string{"GET", "PUT", "PATCH"} {
		if r := h.do(method, "", "Mcp-Session-Id: "+sess, "Accept: text/event-stream"); r.status != 405 || r.header.Get("Allow") != "POST, DELETE" {
			t.Errorf("%s: %d allow %q", method, r.status, r.header.Get("Allow"))
		}
	}
	h.url = strings.TrimSuffix(h.url, Path) + "/other"
	if r := h.do("POST", `{}`); r.status != 404 {
		t.Errorf("another path: %d", r.status)
	}
}

func TestSweep_DropsIdleSessions(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	h := start(t, Options{Now: func() time.Time { return now }})
	old := h.open()
	now = now.Add(wire.SessionIdle / 2)
	fresh := h.open()
	now = now.Add(wire.SessionIdle / 2)
	if n := h.srv.Sweep(); n != 1 || h.srv.Sessions() != 1 {
		t.Fatalf("sweep dropped %d, %d left", n, h.srv.Sessions())
	}
	if r := h.request(old, "ping", nil); r.status != 404 {
		t.Errorf("swept session: %d", r.status)
	}
	if r := h.request(fresh, "ping", nil); r.status != 200 {
		t.Errorf("fresh session: %d", r.status)
	}
}
