package interop

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tai/internal/catalog"
)

// bearer adds tai's key to every request of the Go SDK's transport.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

func sdkConnect(t *testing.T, url, version string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{serveKey}}, MaxRetries: -1}
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	s, err := c.Connect(context.Background(), tr, opts)
	if err != nil {
		t.Fatalf("Go SDK client (version %q): %v", version, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sdkText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return strings.Join(out, "\n")
}

func wantCode(t *testing.T, err error, code int64, what string) {
	t.Helper()
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != code {
		t.Errorf("%s: %v; want JSON-RPC error %d", what, err, code)
	}
}

// A client on the official Go SDK, pinned to 2025-11-25 as tai's server
// speaks it: list, native tools, chat and completions on the fake model,
// and the JSON-RPC errors of bad calls. The SDK also opens its standalone
// GET stream, which tai refuses with 405, as the transport allows.
func TestGoSDKClient_TaiServe(t *testing.T) {
	srv := startTaiServe(t, startFakeLLM(t, echoModel))
	ctx := context.Background()
	s := sdkConnect(t, srv.url, "2025-11-25")
	if init := s.InitializeResult(); init.ProtocolVersion != "2025-11-25" || init.ServerInfo.Name != "tai" || init.Capabilities.Tools == nil {
		t.Errorf("initialize: %+v", init)
	}
	if err := s.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}
	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(catalog.Native()) + 2; len(list.Tools) != want || list.NextCursor != "" {
		t.Errorf("%d tools (cursor %q); tai serves %d", len(list.Tools), list.NextCursor, want)
	}
	call := func(name string, args map[string]any) (*mcp.CallToolResult, error) {
		return s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	}
	if res, err := call("read_file", map[string]any{"path": "note.txt"}); err != nil || res.IsError || !strings.Contains(sdkText(t, res), "hello from a file") {
		t.Errorf("read_file: %+v %v", res, err)
	}
	if res, err := call("read_file", map[string]any{"path": "missing.txt"}); err != nil || !res.IsError {
		t.Errorf("read_file of a missing file: %+v %v", res, err)
	}
	if res, err := call("chat", map[string]any{"message": "first"}); err != nil || sdkText(t, res) != "fake model says: first" {
		t.Errorf("chat: %+v %v", res, err)
	}
	res, err := call("completions", map[string]any{"messages": []map[string]string{{"role": "user", "content": "complete me"}}})
	if err != nil || res.IsError || sdkText(t, res) != "fake model says: complete me" {
		t.Errorf("completions: %+v %v", res, err)
	}
	_, err = call("no_such_tool", nil)
	wantCode(t, err, -32602, "unknown tool")
	_, err = call("read_file", map[string]any{"path": 42})
	wantCode(t, err, -32602, "an argument of the wrong type")
	_, err = call("completions", map[string]any{"messages": []map[string]string{{"role": "tool", "content": "x"}}})
	wantCode(t, err, -32602, "a role completions does not take")
	srv.stop(t)
}

// The SDK's default client offers 2026-07-28 and probes with
// server/discover; tai answers it and the whole conversation is stateless:
// no session, the same tools, chat and the errors.
func TestGoSDKClient_DefaultIsStateless(t *testing.T) {
	srv := startTaiServe(t, startFakeLLM(t, echoModel))
	ctx := context.Background()
	s := sdkConnect(t, srv.url, "")
	if v := s.InitializeResult().ProtocolVersion; v != "2026-07-28" || s.ID() != "" {
		t.Errorf("negotiated %q with session %q", v, s.ID())
	}
	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if want := len(catalog.Native()) + 2; len(list.Tools) != want {
		t.Errorf("%d tools; tai serves %d", len(list.Tools), want)
	}
	call := func(name string, args map[string]any) (*mcp.CallToolResult, error) {
		return s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	}
	if res, err := call("read_file", map[string]any{"path": "note.txt"}); err != nil || res.IsError || !strings.Contains(sdkText(t, res), "hello from a file") {
		t.Errorf("read_file: %+v %v", res, err)
	}
	if res, err := call("chat", map[string]any{"message": "first", "session": "gosdk"}); err != nil || sdkText(t, res) != "fake model says: first" {
		t.Errorf("chat: %+v %v", res, err)
	}
	_, err = call("no_such_tool", nil)
	wantCode(t, err, -32602, "unknown tool")
	srv.stop(t)
}
