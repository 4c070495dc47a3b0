package serve

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
	"tai/internal/mcp/wire"
)

// modernMeta is a complete stateless-era _meta claim.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`

// modern sends a stateless-era request with the matching headers; extra
// headers override them ("Name:" removes one).
func (h *harness) modern(method, params string, headers ...string) reply {
	h.t.Helper()
	if params == "" {
		params = "{" + modernMeta + "}"
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":%q,"params":%s}`, method, params)
	std := []string{"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: " + method}
	return h.do("POST", body, append(std, headers...)...)
}

// modernCall runs tools/call in the stateless era and returns the result.
func (h *harness) modernCall(tool string, args any) wire.CallToolResult {
	h.t.Helper()
	a, _ := json.Marshal(args)
	r := h.modern("tools/call", fmt.Sprintf(`{%s,"name":%q,"arguments":%s}`, modernMeta, tool, a), "Mcp-Name: "+wire.HeaderValue(tool))
	m := r.msg(h.t)
	if r.status != 200 || m.Error != nil {
		h.t.Fatalf("tools/call %s: HTTP %d %s", tool, r.status, r.body)
	}
	var res wire.CallToolResult
	if err := json.Unmarshal(m.Result, &res); err != nil {
		h.t.Fatal(err)
	}
	if res.ResultType != wire.ResultComplete {
		h.t.Fatalf("tools/call %s: resultType %q", tool, res.ResultType)
	}
	return res
}

func TestStateless_DiscoverAndList(t *testing.T) {
	h := start(t, Options{Tools: servedTools(), Version: "9.9"})
	r := h.modern("server/discover", "", "Mcp-Session-Id: whatever")
	if r.status != 200 || r.header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("discover: HTTP %d, session %q: %s", r.status, r.header.Get("Mcp-Session-Id"), r.body)
	}
	var d wire.DiscoverResult
	if err := json.Unmarshal(r.msg(t).Result, &d); err != nil {
		t.Fatal(err)
	}
	if d.ResultType != "complete" || strings.Join(d.SupportedVersions, ",") != "2026-07-28,2025-11-25,2025-06-18,2025-03-26" ||
		string(d.Capabilities.Tools) != "{}" || d.TTLMs == nil || *d.TTLMs <= 0 || d.CacheScope != "public" ||
		d.Meta == nil || d.Meta.ServerInfo == nil || *d.Meta.ServerInfo != (wire.Implementation{Name: "tai", Version: "9.9"}) {
		t.Fatalf("discover result %s", r.body)
	}
	r = h.modern("tools/list", "")
	var l wire.ListToolsResult
	if err := json.Unmarshal(r.msg(t).Result, &l); err != nil || r.status != 200 {
		t.Fatalf("list: %v %s", err, r.body)
	}
	served := servedTools()
	if l.ResultType != "complete" || l.TTLMs == nil || l.CacheScope != "public" || len(l.Tools) != len(served) {
		t.Fatalf("list: type %q ttl %v scope %q, %d tools", l.ResultType, l.TTLMs, l.CacheScope, len(l.Tools))
	}
	for i, tl := range l.Tools {
		if tl.Name != served[i].Name {
			t.Fatalf("tool %d is %s, want %s: the order is the served one", i, tl.Name, served[i].Name)
		}
	}
	if h.srv.Sessions() != 0 {
		t.Errorf("%d sessions after stateless requests", h.srv.Sessions())
	}
}

func TestStateless_Refusals(t *testing.T) {
	h := start(t, Options{Tools: servedTools()})
	metaOnly := func(m string) string { return "{" + m + "}" }
	call := func(name string) string {
		return fmt.Sprintf(`{%s,"name":%q,"arguments":{"path":"x"}}`, modernMeta, name)
	}
	for _, tc := range []struct {
		name, method, params string
		headers              []string
		status               int
		code                 int64
		want                 string
	}{
		{"no capabilities", "tools/list", metaOnly(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`), nil, 400, wire.CodeInvalidParams, "clientCapabilities"},
		{"version header without _meta", "tools/list", `{}`, nil, 400, wire.CodeInvalidParams, "params._meta"},
		{"no version header", "tools/list", "", []string{"MCP-Protocol-Version:"}, 400, wire.CodeHeaderMismatch, "no MCP-Protocol-Version"},
		{"version header differs", "tools/list", "", []string{"MCP-Protocol-Version: 2025-11-25"}, 400, wire.CodeHeaderMismatch, "differs"},
		{"no Mcp-Method", "tools/list", "", []string{"Mcp-Method:"}, 400, wire.CodeHeaderMismatch, "no Mcp-Method"},
		{"Mcp-Method differs", "tools/list", "", []string{"Mcp-Method: tools/call"}, 400, wire.CodeHeaderMismatch, "differs"},
		{"no Mcp-Name", "tools/call", call("read_file"), nil, 400, wire.CodeHeaderMismatch, "no Mcp-Name"},
		{"Mcp-Name differs", "tools/call", call("read_file"), []string{"Mcp-Name: write_file"}, 400, wire.CodeHeaderMismatch, "differs"},
		{"Mcp-Name broken base64", "tools/call", call("read_file"), []string{"Mcp-Name: =?base64?!!?="}, 400, wire.CodeHeaderMismatch, "base64"},
		{"initialize", "initialize", "", nil, 404, wire.CodeMethodNotFound, "session era"},
		{"ping", "ping", "", nil, 404, wire.CodeMethodNotFound, "session era"},
		{"unknown method", "resources/list", "", nil, 404, wire.CodeMethodNotFound, "resources/list"},
		{"unknown tool", "tools/call", call("nope"), []string{"Mcp-Name: nope"}, 200, wire.CodeInvalidParams, "unknown tool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.modern(tc.method, tc.params, tc.headers...)
			m := r.msg(t)
			if r.status != tc.status || m.Error == nil || m.Error.Code != tc.code || !strings.Contains(m.Error.Message, tc.want) || m.ID.String() != "5" {
				t.Fatalf("HTTP %d %s; want %d, %d naming %q", r.status, r.body, tc.status, tc.code, tc.want)
			}
		})
	}
	t.Run("unsupported version", func(t *testing.T) {
		meta := strings.ReplaceAll(modernMeta, "2026-07-28", "2027-01-01")
		r := h.modern("tools/list", "{"+meta+"}", "MCP-Protocol-Version: 2027-01-01")
		m := r.msg(t)
		d, ok := wire.UnsupportedVersionOf(m.Error)
		if r.status != 400 || !ok || d.Requested != "2027-01-01" || !strings.Contains(strings.Join(d.Supported, ","), "2026-07-28,2025-11-25") {
			t.Fatalf("HTTP %d %s", r.status, r.body)
		}
	})
	t.Run("GET and DELETE", func(t *testing.T) {
		if r := h.do("GET", "", "MCP-Protocol-Version: 2026-07-28"); r.status != 405 {
			t.Errorf("GET: HTTP %d", r.status)
		}
		if r := h.do("DELETE", "", "MCP-Protocol-Version: 2026-07-28", "Mcp-Session-Id: x"); r.status != 405 {
			t.Errorf("DELETE: HTTP %d", r.status)
		}
	})
	t.Run("a notification", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,` + modernMeta + `}}`
		if r := h.do("POST", body, "MCP-Protocol-Version: 2026-07-28", "Mcp-Method: notifications/cancelled"); r.status != 202 {
			t.Errorf("HTTP %d %s", r.status, r.body)
		}
	})
}

func TestStateless_CallResultsCarryTheEra(t *testing.T) {
	h := start(t, Options{Tools: servedTools(), Version: "9.9"})
	res := h.modernCall("read_file", map[string]any{"path": "/nonexistent/x"})
	r := h.modern("tools/call", fmt.Sprintf(`{%s,"name":"read_file","arguments":{"path":"x"}}`, modernMeta), "Mcp-Name: read_file")
	if !strings.Contains(string(r.body), `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"tai","version":"9.9"}}`) || !res.IsError {
		t.Fatalf("result %s", r.body)
	}
	// The session era's results stay as they were.
	sess := h.open()
	legacy := h.request(sess, "tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"path": "x"}})
	if strings.Contains(string(legacy.body), "resultType") || strings.Contains(string(legacy.body), "_meta") {
		t.Fatalf("a session-era result carries stateless fields: %s", legacy.body)
	}
}

func TestStateless_ChatLivesInTheVault(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{text("one"), text("two"), text("three"), text("other")}})
	first := start(t, Options{Tools: servedTools(), Host: host, Vault: host.store})
	if res := first.modernCall(ChatName, chatArgsOf("hi", "session", "work")); res.IsError || res.Text() != "one" {
		t.Fatalf("first turn: %+v", res)
	}
	if res := first.modernCall(ChatName, chatArgsOf("again", "session", "work")); res.IsError || res.Text() != "two" {
		t.Fatalf("second turn: %+v", res)
	}
	first.stop() // a restart: nothing of the conversation is left in memory
	second := start(t, Options{Tools: servedTools(), Host: host, Vault: host.store})
	if res := second.modernCall(ChatName, chatArgsOf("and now", "session", "work")); res.IsError || res.Text() != "three" {
		t.Fatalf("turn after the restart: %+v", res)
	}
	if res := second.modernCall(ChatName, chatArgsOf("elsewhere", "session", "b")); res.IsError || res.Text() != "other" {
		t.Fatalf("another conversation: %+v", res)
	}
	reqs := host.model.Requests()
	if got := userMessages(reqs[2].Messages); got != "hi|again|and now" {
		t.Errorf("the turn after the restart sent %q; want the whole stored conversation", got)
	}
	if got := userMessages(reqs[3].Messages); got != "elsewhere" {
		t.Errorf("conversation b sent %q", got)
	}
	// A conversation keeps its profile.
	r := second.modern("tools/call", fmt.Sprintf(`{%s,"name":"chat","arguments":{"message":"x","session":"work","profile":"other"}}`, modernMeta), "Mcp-Name: chat")
	if m := r.msg(t); m.Error == nil || m.Error.Code != wire.CodeInvalidParams || !strings.Contains(m.Error.Message, "keeps the profile") {
		t.Fatalf("profile change: %s", r.body)
	}
}
