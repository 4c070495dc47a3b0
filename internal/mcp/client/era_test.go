package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/wire"
)

// The era tests drive the scripted server in each era over stdio and HTTP:
// which handshake the client ends on, what it sends, and how it reads the
// server's refusals.

func TestEra_StatelessServerOverStdio(t *testing.T) {
	c := connect(t, "stateless", Options{})
	if c.Era().Name != wire.StatelessEra.Name || c.Server().ProtocolVersion != wire.StatelessVersion {
		t.Fatalf("era %q version %q", c.Era().Name, c.Server().ProtocolVersion)
	}
	if c.Server().ServerInfo.Name != "fake-stateless" {
		t.Fatalf("server info %+v", c.Server().ServerInfo)
	}
	// The fake refuses a request without the _meta claim with -32602.
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"a":1}`))
	if err != nil || res.Text() != `{"a":1}` {
		t.Fatalf("call: %v %v", res, err)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("ping in the stateless era: %v", err)
	}
}

func TestEra_SessionServerFallsBackToInitialize(t *testing.T) {
	// note is what tai itself wrote in the server's log on the way.
	tests := map[string]struct {
		script, version, note string
	}{
		"method not found": {"plain", wire.ProtocolVersion, "server/discover failed (mcp error -32601"},
		// -32022 naming session-era versions: initialize with the newest.
		"unsupported, dual-era": {"dual", wire.ProtocolVersion, ""},
		// A discover result listing session-era versions only (the Go
		// SDK's stateful HTTP handler answers so).
		"discover lists session versions": {"discover-legacy-only", wire.ProtocolVersion, ""},
		// An empty result, as a server answering every unknown method
		// with {} gives, and a result that is no DiscoverResult at all:
		// neither lists a version, so initialize.
		"discover answers {}":         {"discover-empty", wire.ProtocolVersion, "server/discover answered no DiscoverResult"},
		"discover answers odd shapes": {"discover-odd", wire.ProtocolVersion, "server/discover answered no DiscoverResult"},
		// No answer within probeWait: initialize goes out too.
		"silent": {"silent-discover", wire.ProtocolVersion, "no answer to server/discover within 100ms; sending initialize too"},
		// The server exits on the probe: it is started again.
		"exits": {"exit-on-discover", wire.ProtocolVersion, "the server exited on server/discover"},
	}
	defer func(w time.Duration) { probeWait = w }(probeWait)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// The silent server is given up on after 100 ms; every other
			// answers or exits, and must be read however long a loaded
			// machine takes to start it, never taken for silent.
			probeWait = time.Minute
			if tc.script == "silent-discover" {
				probeWait = 100 * time.Millisecond
			}
			c := connect(t, tc.script, Options{})
			if c.Era().Name != wire.SessionEra.Name || c.Server().ProtocolVersion != tc.version {
				t.Fatalf("era %q version %q", c.Era().Name, c.Server().ProtocolVersion)
			}
			if _, err := c.ListTools(context.Background()); err != nil {
				t.Fatal(err)
			}
			if s := c.Stderr(); !strings.Contains(s, tc.note) {
				t.Fatalf("the log lacks %q: %q", tc.note, s)
			}
		})
	}
}

func TestEra_RememberedVerdict(t *testing.T) {
	t.Run("session skips the probe", func(t *testing.T) {
		c := connect(t, "plain", Options{Era: wire.SessionEra.Name})
		if s := c.Stderr(); strings.Contains(s, "server/discover") || c.Era().Name != wire.SessionEra.Name {
			t.Fatalf("era %q, stderr %q", c.Era().Name, s)
		}
	})
	t.Run("a stale session verdict probes again", func(t *testing.T) {
		c := connect(t, "stateless-only", Options{Era: wire.SessionEra.Name})
		if c.Era().Name != wire.StatelessEra.Name {
			t.Fatalf("era %q, stderr %q", c.Era().Name, c.Stderr())
		}
		if _, err := c.ListTools(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a stale stateless verdict falls back", func(t *testing.T) {
		c := connect(t, "plain", Options{Era: wire.StatelessEra.Name})
		if c.Era().Name != wire.SessionEra.Name {
			t.Fatalf("era %q", c.Era().Name)
		}
	})
}

// A stateless server that refuses the first discover with -32022 listing
// the very version tai sent gets one more try (the conformance suite's
// request-metadata scenario does this).
func TestEra_RetriesAListedVersion(t *testing.T) {
	c := connect(t, "stateless-refuse-once", Options{})
	// Stateless means the second discover was answered; the note is tai's.
	if c.Era().Name != wire.StatelessEra.Name || !strings.Contains(c.Stderr(), "refused 2026-07-28 but lists it; trying once more") {
		t.Fatalf("era %q, stderr %q", c.Era().Name, c.Stderr())
	}
}

func TestEra_NoSharedVersionNamesBoth(t *testing.T) {
	checkLeaks(t)
	_, err := Connect(context.Background(), Options{Transport: fake(t, "future")})
	var ve *VersionError
	var he *HandshakeError
	if !errors.As(err, &ve) || !errors.As(err, &he) {
		t.Fatalf("got %v", err)
	}
	for _, want := range []string{"the server speaks MCP 2027-01-01; tai speaks 2026-07-28, 2025-11-25", "2024-11-05"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestEra_TTL(t *testing.T) {
	c := connect(t, "stateless-ttl", Options{})
	if _, ok := c.ListedUntil(); ok {
		t.Fatal("fresh before any list")
	}
	before := time.Now()
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	until, ok := c.ListedUntil()
	if !ok || until.Before(before.Add(250*time.Millisecond)) || until.After(time.Now().Add(250*time.Millisecond)) {
		t.Fatalf("listed until %v (ok %v), listed at %v with ttlMs 250", until, ok, before)
	}
}

func TestEra_InputRequiredIsRefused(t *testing.T) {
	c2 := connect(t, "stateless-input", Options{})
	if _, err := c2.ListTools(context.Background()); err == nil || !strings.Contains(err.Error(), "input_required") {
		t.Fatalf("an input_required list was taken: %v", err)
	}
}

func TestEra_StatelessOverHTTP(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(map[bool]string{false: "json", true: "sse"}[sse], func(t *testing.T) {
			checkLeaks(t)
			f := newHTTPFake(t, "stateless", sse)
			c := connectHTTP(t, f, Options{CallTimeout: 300 * time.Millisecond})
			if c.Era().Name != wire.StatelessEra.Name {
				t.Fatalf("era %q", c.Era().Name)
			}
			if _, err := c.ListTools(context.Background()); err != nil {
				t.Fatal(err)
			}
			if res, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{}`)); err != nil || res.Text() != "{}" {
				t.Fatalf("call: %v %v", res, err)
			}
			_, err := c.CallTool(context.Background(), "hang", nil)
			var te *TimeoutError
			if !errors.As(err, &te) {
				t.Fatalf("hang: %v", err)
			}
			c.Close()
			f.mu.Lock()
			defer f.mu.Unlock()
			for i, h := range f.seen {
				if h.Get(wire.HeaderSessionID) != "" || h.Get(wire.HeaderProtocolVersion) != wire.StatelessVersion || h.Get(wire.HeaderMethod) != f.methods[i] {
					t.Errorf("POST %d (%s) headers %v", i, f.methods[i], h)
				}
				if f.methods[i] == wire.MethodInitialize || f.methods[i] == wire.MethodCancelled {
					t.Errorf("POST %d is %s, which the stateless era over HTTP never sends", i, f.methods[i])
				}
			}
			if got := f.methods; len(got) != 4 || got[0] != wire.MethodDiscover {
				t.Errorf("methods %v: want discover, list and two calls", got)
			}
		})
	}
}

func TestEra_HTTPRefusalsReadAsOneLine(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", false)
	f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
		data, _ := json.Marshal(wire.UnsupportedVersion{Supported: []string{"2027-01-01"}, Requested: "x"})
		b, _ := wire.Encode(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeUnsupportedProtocol, Message: "Unsupported protocol version", Data: data}))
		w.WriteHeader(http.StatusBadRequest)
		w.Write(b)
		return true
	}
	_, err := Connect(context.Background(), Options{Transport: f.transport()})
	if err == nil || strings.Contains(err.Error(), `{"jsonrpc"`) || !strings.Contains(err.Error(), "the server speaks MCP 2027-01-01; tai speaks 2026-07-28") {
		t.Fatalf("got %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.methods) != 1 || f.methods[0] != wire.MethodDiscover {
		t.Fatalf("tai sent %v to a stateless-only server: it must not try initialize", f.methods)
	}
}

func TestEra_ParamHeadersOverHTTP(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "stateless-xh", false)
	c := connectHTTP(t, f, Options{})
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "echo" {
		t.Fatalf("listed %v: the four tools with broken x-mcp-header annotations must be left out", tools)
	}
	for _, bad := range []string{"in_items", "on_number", "twice", "colon"} {
		if !strings.Contains(c.Stderr(), "left out tool "+bad) {
			t.Errorf("no note for %s in %q", bad, c.Stderr())
		}
	}
	if _, err := c.CallTool(context.Background(), "in_items", nil); err == nil || !strings.Contains(err.Error(), "left this tool out") {
		t.Fatalf("a tool left out was called: %v", err)
	}
	args := json.RawMessage(`{"region":" eu ü","n":42,"deep":{"on":true},"q":"not mirrored"}`)
	if _, err := c.CallTool(context.Background(), "echo", args); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	h := f.seen[len(f.seen)-1]
	f.mu.Unlock()
	want := map[string]string{"Mcp-Param-Region": wire.HeaderValue(" eu ü"), "Mcp-Param-N": "42", "Mcp-Param-On": "true", "Mcp-Param-Q": ""}
	for k, v := range want {
		if h.Get(k) != v {
			t.Errorf("%s: %q, want %q", k, h.Get(k), v)
		}
	}
	if !strings.HasPrefix(h.Get("Mcp-Param-Region"), "=?base64?") {
		t.Errorf("a value with spaces at its ends went plain: %q", h.Get("Mcp-Param-Region"))
	}
}

// A stateless server refuses with a 4xx status and the JSON-RPC error in
// the body (the Go SDK's stateless handler answers an unknown tool with 400
// and -32602): the caller gets the JSON-RPC error, as over any transport,
// while a login's 401 stays an HTTP error.
func TestEra_StatelessRefusalsAreJSONRPCErrors(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "stateless", false)
	f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
		var p wire.CallToolParams
		if m.Method != wire.MethodToolsCall || p.UnmarshalJSON(m.Params) != nil || p.Name == "echo" {
			return false
		}
		status := map[string]int{"nope": http.StatusBadRequest, "login": http.StatusUnauthorized}[p.Name]
		b, _ := wire.Encode(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "unknown tool " + p.Name}))
		w.WriteHeader(status)
		w.Write(b)
		return true
	}
	c := connectHTTP(t, f, Options{})
	_, err := c.CallTool(context.Background(), "nope", nil)
	var we *wire.Error
	var he *wire.HTTPError
	if !errors.As(err, &we) || we.Code != wire.CodeInvalidParams || errors.As(err, &he) {
		t.Fatalf("unknown tool: %v, want the JSON-RPC error -32602", err)
	}
	_, err = c.CallTool(context.Background(), "login", nil)
	if !errors.As(err, &he) || he.Status != http.StatusUnauthorized {
		t.Fatalf("401: %v, want an HTTP error", err)
	}
}
