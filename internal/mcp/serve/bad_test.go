package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tai/internal/mcp/wire"
)

// Every bad input gets one clear answer, the server stays up, and nothing
// outlives the test.

func TestBad_Key(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{})
	ping := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	lastByte := testKey[:len(testKey)-1] + string(testKey[len(testKey)-1]^1)
	for _, tc := range []struct {
		name, auth string
		status     int
	}{
		{"no key", "Authorization:", 401},
		{"wrong key", "Authorization: Bearer nope", 401},
		{"key differing in the last byte", "Authorization: Bearer " + lastByte, 401},
		{"key with a prefix of the right one", "Authorization: Bearer " + testKey[:len(testKey)-1], 401},
		{"another scheme", "Authorization: Basic " + testKey, 401},
		{"huge key header", "Authorization: Bearer " + strings.Repeat("k", 60<<10), 401},
		{"headers over MaxHeaderBytes", "Authorization: Bearer " + strings.Repeat("k", 1<<20), 431},
		{"right key, scheme in lower case", "Authorization: bearer " + testKey, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", ping, tc.auth)
			if r.status != tc.status {
				t.Fatalf("HTTP %d %q; want %d", r.status, r.body, tc.status)
			}
			if tc.status == 401 && r.header.Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("WWW-Authenticate %q", r.header.Get("WWW-Authenticate"))
			}
			if tc.status == 401 && r.header.Get("Mcp-Session-Id") != "" {
				t.Error("a session was opened without the key")
			}
		})
	}
	if n := h.srv.Sessions(); n != 1 {
		t.Errorf("%d sessions; only the request with the key opens one", n)
	}
}

func TestBad_HostAndOrigin(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{AllowOrigins: []string{"https://app.example.com"}})
	ping := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	port := h.host[strings.LastIndexByte(h.host, ':'):]
	for _, tc := range []struct {
		name    string
		headers []string
		status  int
	}{
		{"rebound Host", []string{"Host: evil.example.com" + port}, 403},
		{"rebound Host and Origin", []string{"Host: evil.example.com", "Origin: http://evil.example.com"}, 403},
		{"foreign Origin", []string{"Origin: http://evil.example.com"}, 403},
		{"null Origin", []string{"Origin: null"}, 403},
		{"Origin with a path", []string{"Origin: http://localhost/x"}, 403},
		{"loopback Origin", []string{"Origin: http://localhost:6274"}, 200},
		{"loopback IP Origin", []string{"Origin: http://127.0.0.1" + port}, 200},
		{"localhost Host", []string{"Host: localhost" + port}, 200},
		{"IPv6 loopback Host", []string{"Host: [::1]" + port}, 200},
		{"allowed origin", []string{"Origin: https://APP.example.com"}, 200},
		{"allowed origin's host", []string{"Host: app.example.com"}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", ping, tc.headers...)
			if r.status != tc.status {
				t.Fatalf("HTTP %d %q; want %d", r.status, r.body, tc.status)
			}
			if tc.status == 403 && !strings.Contains(string(r.body), "DNS-rebinding") {
				t.Errorf("refusal does not say why: %q", r.body)
			}
		})
	}
	// Without the key, a rebound request learns nothing more.
	if r := h.do("POST", ping, "Host: evil.example.com", "Authorization:"); r.status != 403 {
		t.Errorf("rebound without key: %d", r.status)
	}
}

func TestBad_OriginsOffLoopback(t *testing.T) {
	g, err := newGuard(false, []string{"https://app.example.com:8443"})
	if err != nil {
		t.Fatal(err)
	}
	for origin, ok := range map[string]bool{"": true, "https://app.example.com:8443": true,
		"http://localhost:6274": false, "https://app.example.com": false} {
		r, _ := http.NewRequest("POST", "http://192.0.2.1:8765/mcp", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if got := g.refuse(r) == ""; got != ok {
			t.Errorf("origin %q accepted %v off loopback", origin, got)
		}
	}
	for _, bad := range []string{"app.example.com", "ftp://x", "https://x/path", "https://user@x"} {
		if _, err := newGuard(false, []string{bad}); err == nil || !strings.Contains(err.Error(), "scheme://host") {
			t.Errorf("allowed origin %q: %v", bad, err)
		}
	}
}

func TestBad_Bodies(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{Tools: servedTools()})
	sess := h.open()
	for _, tc := range []struct {
		name, body string
		status     int
		code       int64
	}{
		{"truncated JSON", `{"jsonrpc":"2.0","id":1,"method":"pi`, 400, wire.CodeParseError},
		{"not JSON", `hello`, 400, wire.CodeParseError},
		{"empty body", ``, 400, wire.CodeParseError},
		{"a number", `42`, 400, wire.CodeInvalidRequest},
		{"a string", `"ping"`, 400, wire.CodeInvalidRequest},
		{"null", `null`, 400, wire.CodeInvalidRequest},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, 400, wire.CodeInvalidRequest},
		{"an empty batch", `[]`, 400, wire.CodeInvalidRequest},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, 400, wire.CodeInvalidRequest},
		{"an id that is an array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, 400, wire.CodeInvalidRequest},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, 400, wire.CodeInvalidRequest},
		{"no jsonrpc", `{"id":1,"method":"ping"}`, 400, wire.CodeInvalidRequest},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":3}`, 400, wire.CodeInvalidRequest},
		{"params a string", `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, 400, wire.CodeInvalidRequest},
		{"an empty object", `{}`, 400, wire.CodeInvalidRequest},
		{"a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, 400, wire.CodeInvalidRequest},
		{"initialize params an array", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}`, 200, wire.CodeInvalidParams},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", tc.body, "Mcp-Session-Id: "+sess)
			m := r.msg(t)
			if r.status != tc.status || m.Error == nil || m.Error.Code != tc.code {
				t.Fatalf("HTTP %d %s; want %d with error %d", r.status, r.body, tc.status, tc.code)
			}
			if strings.ContainsAny(m.Error.Message, "\n\r") || m.Error.Message == "" {
				t.Errorf("message is not one line: %q", m.Error.Message)
			}
		})
	}
	if r := h.request(sess, "ping", nil); r.status != 200 {
		t.Errorf("session lost after bad bodies: %d", r.status)
	}
}

func TestBad_BodyOverTheCap(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", wire.HTTPMaxBody) + `"}}`
	big = big[:wire.HTTPMaxBody+1]
	if r := h.do("POST", big); r.status != 413 || !strings.Contains(string(r.body), "MCP_HTTP_MAX_BODY") {
		t.Errorf("10 MiB + 1 with Content-Length: %d %.100s", r.status, r.body)
	}
	// Without Content-Length the reader stops at the cap.
	req, _ := http.NewRequest("POST", h.url, io.MultiReader(strings.NewReader(big)))
	req.Header.Set("Authorization", "Bearer "+h.key)
	resp, err := h.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("10 MiB + 1 chunked: %d", resp.StatusCode)
	}
	if r := h.do("POST", big[:wire.HTTPMaxBody-100]+`"}}`); r.status == 413 {
		t.Errorf("a body under the cap was refused")
	}
}

// raw sends a request head on a fresh connection and returns it.
func (h *harness) raw(t *testing.T, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", h.host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	return c
}

func (h *harness) head(length int) string {
	return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
		h.host, h.key, length)
}

func TestBad_TruncatedBody(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{})
	c := h.raw(t, h.head(100)+`{"jsonrpc":"2.0",`)
	c.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "could not be read in full") {
		t.Errorf("HTTP %d %q", resp.StatusCode, body)
	}
}

// A request refused before its body is read is answered at once, and its
// connection closed, however slowly the body would come.
func TestBad_RefusedWithoutWaitingForTheBody(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{})
	for name, head := range map[string]string{
		"wrong key":    strings.Replace(h.head(100), h.key, "nope", 1),
		"foreign Host": strings.Replace(h.head(100), "Host: "+h.host, "Host: evil.example.com", 1),
		"GET":          strings.Replace(h.head(100), "POST", "GET", 1),
	} {
		c := h.raw(t, head) // the 100 bytes of body never come
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp.Body.Close()
		if resp.StatusCode < 400 || !resp.Close {
			t.Errorf("%s: HTTP %d, close %v", name, resp.StatusCode, resp.Close)
		}
	}
}

func TestBad_SlowDripBody(t *testing.T) {
	checkLeaks(t)
	h := start(t, Options{BodyTimeout: 100 * time.Millisecond})
	const length = 2000
	c := h.raw(t, h.head(length))
	var sent atomic.Int64
	ctx, stop := context.WithCancel(context.Background())
	dripped := make(chan struct{})
	go func() {
		defer close(dripped)
		tick := time.NewTicker(5 * time.Millisecond) // one byte per tick: 10 s for the whole body
		defer tick.Stop()
		for range length {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	stop()
	<-dripped
	if err != nil {
		t.Fatalf("no answer to a dripping body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 || sent.Load() >= length {
		t.Errorf("HTTP %d after %d of %d bytes; want 400 before the body was complete", resp.StatusCode, sent.Load(), length)
	}
	if r := h.do("POST", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`); r.status != 200 {
		t.Errorf("server unusable after a drip: %d", r.status)
	}
}

// A client that opens sessions and walks away costs only memory until
// the sweep; every session's tool state is closed then.
func TestBad_ThousandAbandonedSessions(t *testing.T) {
	checkLeaks(t)
	now := time.Unix(1_000_000, 0)
	var closed atomic.Int64
	stateful := &Tool{Name: "stateful", Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		env, err := c.Session().toolEnv(ctx)
		if err != nil {
			return nil, err
		}
		env.State.OnClose(func() { closed.Add(1) })
		return TextResult("ok", false), nil
	}}
	h := start(t, Options{Tools: []*Tool{stateful}, Now: func() time.Time { return now }})
	const n = 1000
	for i := range n {
		sess := h.open()
		if i%10 == 0 {
			h.call(sess, "stateful", nil)
		}
	}
	if got := h.srv.Sessions(); got != n {
		t.Fatalf("%d sessions open", got)
	}
	now = now.Add(wire.SessionIdle)
	if dropped := h.srv.Sweep(); dropped != n || h.srv.Sessions() != 0 {
		t.Fatalf("sweep dropped %d, %d left", dropped, h.srv.Sessions())
	}
	if closed.Load() != n/10 {
		t.Errorf("%d sessions' tool state closed, want %d", closed.Load(), n/10)
	}
	r := h.do("POST", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Mcp-Session-Id: x")
	if r.status != 404 {
		t.Errorf("after the sweep: %d", r.status)
	}
	var res json.RawMessage = h.call(h.open(), "stateful", nil).Content[0]
	if !strings.Contains(string(res), "ok") {
		t.Errorf("a new session after the sweep: %s", res)
	}
}
