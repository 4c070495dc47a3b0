package wire

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecode_KeepsIDExactly(t *testing.T) {
	for _, id := range []string{`7`, `"7"`, `"abc"`, `-3`, `1.5e3`, `9007199254740993`} {
		m, err := Decode([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`))
		if err != nil {
			t.Fatalf("id %s: %v", id, err)
		}
		if m.ID.String() != id {
			t.Errorf("id %s came back as %s", id, m.ID)
		}
		out, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}`; string(out) != want {
			t.Errorf("encode: got %s, want %s", out, want)
		}
	}
	if Int64ID(7) == (ID{`"7"`}) {
		t.Error("number 7 and string \"7\" must be different ids")
	}
}

func TestDecode_Kinds(t *testing.T) {
	tests := []struct {
		in                     string
		req, notif, resp, fail bool
	}{
		{in: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, req: true},
		{in: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, notif: true},
		{in: `{"jsonrpc":"2.0","id":1,"result":null}`, resp: true},
		{in: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`, resp: true},
		{in: `  {"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope"}}` + "\r\n", resp: true},
	}
	for _, tt := range tests {
		m, err := Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if m.IsRequest() != tt.req || m.IsNotification() != tt.notif || m.IsResponse() != tt.resp {
			t.Errorf("%s: request=%v notification=%v response=%v", tt.in, m.IsRequest(), m.IsNotification(), m.IsResponse())
		}
	}
}

func TestDecode_RefusesBadShapes(t *testing.T) {
	tests := map[string]string{
		"not json":           `hello`,
		"html":               `<html>`,
		"batch":              `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		"version 1":          `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		"no version":         `{"id":1,"method":"ping"}`,
		"neither":            `{"jsonrpc":"2.0"}`,
		"both":               `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`,
		"none":               `{"jsonrpc":"2.0","id":1}`,
		"object id":          `{"jsonrpc":"2.0","id":{},"result":{}}`,
		"null request id":    `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		"scalar params":      `{"jsonrpc":"2.0","id":1,"method":"ping","params":3}`,
		"request and result": `{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`,
		"null id result":     `{"jsonrpc":"2.0","id":null,"result":{}}`,
		"truncated":          `{"jsonrpc":"2.0","id":1,"result":`,
	}
	for name, in := range tests {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("%s: decoded %s without error", name, in)
		}
	}
}

func TestDecode_PartialMessageKeepsID(t *testing.T) {
	m, err := Decode([]byte(`{"jsonrpc":"2.0","id":4}`))
	if err == nil || m == nil || m.ID != Int64ID(4) {
		t.Fatalf("got %v, %v; want the id 4 and an error", m, err)
	}
}

func TestEncode_OneLine(t *testing.T) {
	m, err := NewRequest(Int64ID(1), MethodToolsCall, json.RawMessage("{\n \"name\": \"a\\nb\"\n}"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(string(out), "\r\n") {
		t.Fatalf("encoded message spans lines: %q", out)
	}
	back, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	var p CallToolParams
	if err := json.Unmarshal(back.Params, &p); err != nil || p.Name != "a\nb" {
		t.Fatalf("params did not survive: %+v %v", p, err)
	}
}

func TestEncode_Responses(t *testing.T) {
	tests := []struct {
		m    *Message
		want string
	}{
		{NewErrorResponse(ID{`"q"`}, &Error{Code: CodeMethodNotFound, Message: "method not found"}),
			`{"jsonrpc":"2.0","id":"q","error":{"code":-32601,"message":"method not found"}}`},
		{&Message{ID: Int64ID(2)}, `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{&Message{Method: MethodInitialized}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	}
	for _, tt := range tests {
		out, err := Encode(tt.m)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(out)); diff != "" {
			t.Errorf("encode (-want +got):\n%s", diff)
		}
	}
}

func TestHTTPError_IsAnError(t *testing.T) {
	var err error = &HTTPError{Status: 401, WWWAuthenticate: `Bearer resource_metadata="x"`}
	var rpc *Error
	if !errors.As(err, &rpc) || rpc.Code != CodeHTTP {
		t.Fatalf("errors.As(*Error) = %v, %+v", errors.As(err, &rpc), rpc)
	}
	var h *HTTPError
	if !errors.As(err, &h) || h.Status != 401 {
		t.Fatal("errors.As(*HTTPError) failed")
	}
	if !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "resource_metadata") {
		t.Errorf("message %q lacks the status or the header", err)
	}
}

func TestPrintable(t *testing.T) {
	got := Printable("a\x1b[31mred\u202e\nline", 100)
	if want := `a\x1b[31mred<U+202E>\nline`; got != want {
		t.Errorf("Printable = %q, want %q: every character shown, none acting on the terminal", got, want)
	}
	if got := Printable("abcdef", 3); got != "abc…" {
		t.Errorf("cut: %q", got)
	}
}

func TestConstants_MatchGoValues(t *testing.T) {
	want := map[string]string{"MCP_RESULT_MAX": "64KiB", "MCP_HTTP_MAX_BODY": "10MiB", "MCP_CALL_TIMEOUT": "60s"}
	seen := map[string]bool{}
	for _, c := range Constants {
		if seen[c.Name] {
			t.Errorf("%s listed twice", c.Name)
		}
		seen[c.Name] = true
		if w, ok := want[c.Name]; ok && c.Value != w {
			t.Errorf("%s = %s, want %s", c.Name, c.Value, w)
		}
	}
	if ResultMax != 65536 || HTTPMaxBody != 10485760 {
		t.Errorf("ResultMax=%d HTTPMaxBody=%d", ResultMax, HTTPMaxBody)
	}
}

func TestSessionEra_AcceptsOnlyKnownVersions(t *testing.T) {
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		if !SessionEra.Accepted(v) || !Supported(v) {
			t.Errorf("%s refused", v)
		}
	}
	// The client takes the first revision too; tai's own server does not.
	if !SessionEra.Accepted(LegacyVersion) || Supported(LegacyVersion) {
		t.Errorf("%s: client accepts %v, server supports %v", LegacyVersion, SessionEra.Accepted(LegacyVersion), Supported(LegacyVersion))
	}
	for _, v := range []string{"2024-10-07", "2026-07-28", ""} {
		if SessionEra.Accepted(v) {
			t.Errorf("%s accepted", v)
		}
	}
}

func TestEraOf_MapsEveryVersion(t *testing.T) {
	for _, v := range SupportedVersions {
		if e, ok := EraOf(v); !ok || e.Name != SessionEra.Name {
			t.Errorf("%s: era %q, %v", v, e.Name, ok)
		}
	}
	if e, ok := EraOf("2026-07-28"); !ok || e.Name != StatelessEra.Name || e.Sessions {
		t.Errorf("2026-07-28 mapped to era %+v, %v", e, ok)
	}
	if _, ok := EraOf("2027-01-01"); ok {
		t.Error("an unknown revision has an era")
	}
}

func TestServedMethod(t *testing.T) {
	for _, era := range Eras {
		if m, ok := ServedMethod(MethodToolsCall, era); !ok || m.Notification {
			t.Errorf("tools/call in %s: %+v %v", era.Name, m, ok)
		}
		if _, ok := ServedMethod(MethodRootsList, era); ok {
			t.Errorf("roots/list, which a server sends, is served in %s", era.Name)
		}
		if _, ok := ServedMethod(MethodListen, era); ok {
			t.Errorf("subscriptions/listen is served in %s", era.Name)
		}
	}
	for method, era := range map[string]Era{MethodDiscover: StatelessEra, MethodInitialize: SessionEra, MethodPing: SessionEra,
		MethodSetLevel: SessionEra, MethodSubscribe: SessionEra} {
		for _, e := range Eras {
			if _, ok := ServedMethod(method, e); ok != (e.Name == era.Name) {
				t.Errorf("%s served in %s: %v", method, e.Name, ok)
			}
		}
	}
}

func TestWithMetaAndReadClaim(t *testing.T) {
	meta := []byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)
	for _, params := range []string{"", "null", "{}", ` { } `, `{"name":"x","arguments":{"_meta":1}}`} {
		got, err := WithMeta(json.RawMessage(params), meta)
		if err != nil || !json.Valid(got) {
			t.Fatalf("%q: %s %v", params, got, err)
		}
		c := ReadClaim(got)
		if !c.Present || c.Version != StatelessVersion || len(c.Missing) != 0 {
			t.Errorf("%q: claim %+v from %s", params, c, got)
		}
	}
	if _, err := WithMeta(json.RawMessage(`[1]`), meta); err == nil {
		t.Error("array params took _meta")
	}
	for params, want := range map[string]Claim{
		`{}`:           {},
		`{"_meta":{}}`: {},
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`:                                             {Version: StatelessVersion, Present: true, Missing: []string{MetaClientCapabilities}},
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}}}`:        {Present: true, Missing: []string{MetaProtocolVersion}},
		`{"_me\u0074a":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":[]}}`: {Version: "x", Present: true, Missing: []string{MetaClientCapabilities}},
	} {
		got := ReadClaim(json.RawMessage(params))
		if got.Version != want.Version || got.Present != want.Present || strings.Join(got.Missing, ",") != strings.Join(want.Missing, ",") {
			t.Errorf("%s: %+v, want %+v", params, got, want)
		}
	}
}

func TestHeaderValue_RoundTrips(t *testing.T) {
	plain := []string{"get_weather", "a b", "a\tb", "x=?base64?y", ""}
	encoded := []string{"Hello, 世界", " padded ", "line1\nline2", "tab\t", "=?base64?literal?=", "x\x7f", "\x00"}
	for _, v := range append(plain, encoded...) {
		h := HeaderValue(v)
		if isPlain := h == v; isPlain != slices.Contains(plain, v) {
			t.Errorf("%q encoded as %q", v, h)
		}
		back, ok := ReadHeaderValue(h)
		if !ok || back != v {
			t.Errorf("%q: %q back to %q %v", v, h, back, ok)
		}
	}
	for _, bad := range []string{"=?base64?!!?=", "a\nb", "caf\u00e9"} {
		if _, ok := ReadHeaderValue(bad); ok {
			t.Errorf("%q read as a header value", bad)
		}
	}
}

func TestTool_KeepsRaw(t *testing.T) {
	in := `{"name":"x","inputSchema":{"type":"object"},"_meta":{"k":1},"icons":[]}`
	var tool Tool
	if err := json.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	if string(tool.Raw) != in || tool.Name != "x" || string(tool.InputSchema) != `{"type":"object"}` {
		t.Fatalf("got %+v", tool)
	}
}

func TestCallToolResult_Text(t *testing.T) {
	var r CallToolResult
	in := `{"content":[{"type":"text","text":"a"},{"type":"image","data":"x"},{"type":"text","text":"b"}],"isError":true}`
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if r.Text() != "a\nb" || !r.IsError {
		t.Fatalf("text %q isError %v", r.Text(), r.IsError)
	}
}

// A server that writes its code into the message (the TS SDK does) is
// shown with the code once.
func TestError_CodeSaidOnce(t *testing.T) {
	for msg, want := range map[string]string{
		"MCP error -32602: Resource x not found": "mcp error -32602: Resource x not found",
		"Resource x not found":                   "mcp error -32602: Resource x not found",
		"MCP error -32601: other code":           "mcp error -32602: MCP error -32601: other code",
	} {
		if got := (&Error{Code: -32602, Message: msg}).Error(); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
}
