package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"tai/internal/agent"
	"tai/internal/catalog"
	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

const testKey = "test-key-0123456789abcdef"

// harness is a Server running through Run on a loopback port, as
// tai --serve-mcp runs it.
type harness struct {
	t    *testing.T
	srv  *Server
	url  string
	host string // host:port
	key  string
	hc   *http.Client
	stop func() // cancels Run and waits for it
}

// start runs a server with o (Key defaults to testKey) until the test ends.
func start(t *testing.T, o Options) *harness {
	t.Helper()
	if o.Key == "" {
		o.Key = testKey
	}
	o.Loopback = true
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, ln) }()
	h := &harness{t: t, srv: srv, url: "http://" + ln.Addr().String() + Path, host: ln.Addr().String(), key: o.Key,
		hc: &http.Client{Transport: &http.Transport{}}}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			h.hc.CloseIdleConnections()
		})
	}
	t.Cleanup(h.stop)
	return h
}

// reply is an HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// msg decodes the body as a JSON-RPC message.
func (r reply) msg(t *testing.T) *wire.Message {
	t.Helper()
	m, err := wire.Decode(r.body)
	if err != nil {
		t.Fatalf("HTTP %d body is not JSON-RPC (%v): %q", r.status, err, r.body)
	}
	return m
}

// do sends a request with the key and the given headers ("Name: value";
// an empty value removes a default header).
func (h *harness) do(method, body string, headers ...string) reply {
	h.t.Helper()
	r, err := h.try(method, body, headers...)
	if err != nil {
		h.t.Fatalf("%s: %v", method, err)
	}
	return r
}

// try is do for any goroutine: it reports failures instead of ending the
// test.
func (h *harness) try(method, body string, headers ...string) (reply, error) {
	req, err := http.NewRequest(method, h.url, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Authorization", "Bearer "+h.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ":")
		if v = strings.TrimSpace(v); v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
		if strings.EqualFold(k, "Host") {
			req.Host = v
		}
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}, err
}

// open initializes a session and returns its id.
func (h *harness) open() string {
	h.t.Helper()
	id, err := h.tryOpen()
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

func (h *harness) tryOpen() (string, error) {
	r, err := h.try("POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	id := r.header.Get("Mcp-Session-Id")
	if err == nil && (r.status != 200 || id == "") {
		err = fmt.Errorf("initialize: %d %q %s", r.status, id, r.body)
	}
	return id, err
}

// request sends method in session sess and returns the reply.
func (h *harness) request(sess, method string, params any, headers ...string) reply {
	h.t.Helper()
	p, err := json.Marshal(params)
	if err != nil {
		h.t.Fatal(err)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":%q,"params":%s}`, method, p)
	return h.do("POST", body, append([]string{"Mcp-Session-Id: " + sess, "MCP-Protocol-Version: 2025-11-25"}, headers...)...)
}

// call runs tools/call and returns the result, failing on a JSON-RPC error.
func (h *harness) call(sess, tool string, args any) wire.CallToolResult {
	h.t.Helper()
	res, err := h.tryCall(sess, tool, args)
	if err != nil {
		h.t.Fatal(err)
	}
	return res
}

func (h *harness) tryCall(sess, tool string, args any) (wire.CallToolResult, error) {
	var res wire.CallToolResult
	p, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	r, err := h.try("POST", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":`+string(p)+`}`,
		"Mcp-Session-Id: "+sess, "MCP-Protocol-Version: 2025-11-25")
	if err != nil {
		return res, err
	}
	m, err := wire.Decode(r.body)
	if err != nil || r.status != 200 || m.Error != nil {
		return res, fmt.Errorf("tools/call %s: HTTP %d %s", tool, r.status, r.body)
	}
	return res, json.Unmarshal(m.Result, &res)
}

// rpcError runs method and returns its JSON-RPC error, failing without one.
func (h *harness) rpcError(sess, method string, params any) (int, *wire.Error) {
	h.t.Helper()
	r := h.request(sess, method, params)
	m := r.msg(h.t)
	if m.Error == nil {
		h.t.Fatalf("%s: want an error, got HTTP %d %s", method, r.status, r.body)
	}
	return r.status, m.Error
}

// checkLeaks fails the test when goroutines outlive it and its cleanups.
// Register it first, so that it runs last.
func checkLeaks(t *testing.T) {
	t.Helper()
	mcptest.CheckGoroutines(t, nil)
}

// testHost is a Host on a fresh vault and a fake model, built like tai's
// own: the native catalogue without bridged tools, approvals as --yolo.
type testHost struct {
	store *vault.Store
	model *llmtest.Server
	dir   string

	mu     sync.Mutex
	agents []*agent.Agent
}

func newTestHost(t *testing.T, script llmtest.Script) *testHost {
	t.Helper()
	store, err := vault.Open(context.Background(), filepath.Join(t.TempDir(), "home"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return &testHost{store: store, model: llmtest.Start(t, script), dir: t.TempDir()}
}

// servingNote serves the native tools over a host whose directory holds
// note.txt with text, in an open session.
func servingNote(t *testing.T, text string) (host *testHost, h *harness, sess string) {
	t.Helper()
	host = newTestHost(t, llmtest.Script{})
	if err := os.WriteFile(filepath.Join(host.dir, "note.txt"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	h = start(t, Options{Tools: servedTools(), Host: host})
	return host, h, h.open()
}

func (h *testHost) Env(ctx context.Context) (*tools.Env, error) {
	return &tools.Env{Dir: h.dir, Store: h.store, Profile: "default", Approval: profile.ApprovalYolo,
		Door: tools.DoorServed, State: &tools.State{}, Tools: tools.NewRegistry(catalog.Native()...)}, nil
}

func (h *testHost) Agent(ctx context.Context, name string) (*agent.Agent, error) {
	if name == "" {
		name = "default"
	}
	if ok, err := h.store.ProfileExists(ctx, name); err != nil || !ok {
		return nil, fmt.Errorf("%w %q; see tai profile list", ErrUnknownProfile, name)
	}
	env, _ := h.Env(ctx)
	env.Profile = name
	reg := env.Tools
	ag := &agent.Agent{Client: h.client(), Tools: reg, Selector: agent.LazyTools{Registry: reg}, Env: env,
		Approver: &agent.Approver{Mode: profile.ApprovalYolo, Store: h.store, Profile: name}}
	env.Subagents = agent.NewRunner(ag)
	h.mu.Lock()
	h.agents = append(h.agents, ag)
	h.mu.Unlock()
	return ag, nil
}

func (h *testHost) Model(ctx context.Context) (llm.Client, error) { return h.client(), nil }

func (h *testHost) client() llm.Client {
	c, err := llm.New(h.model.Config("openai"))
	if err != nil {
		panic(err)
	}
	return c
}

// servedTools is what tai serves on a host.
func servedTools() []*Tool { return Served(catalog.Native()) }
