package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/wire"
)

// connectHTTP connects to a fake and closes the client at the end.
func connectHTTP(t *testing.T, f *httpFake, opts Options) *Client {
	t.Helper()
	opts.Transport = f.transport()
	return connectWith(t, opts)
}

func TestHTTP_ToolsOverJSONAndEventStream(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(map[bool]string{false: "json", true: "sse"}[sse], func(t *testing.T) {
			checkLeaks(t)
			f := newHTTPFake(t, "plain", sse)
			c := connectHTTP(t, f, Options{})
			ctx := context.Background()
			tools, err := c.ListTools(ctx)
			if err != nil || len(tools) != 1 {
				t.Fatalf("tools %v %v", tools, err)
			}
			res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"q":"ü"}`))
			if err != nil || res.Text() != `{"q":"ü"}` {
				t.Fatalf("echo %+v %v", res, err)
			}
			res, err = c.CallTool(ctx, "fail", nil)
			if err != nil || !res.IsError {
				t.Fatalf("fail %+v %v", res, err)
			}
			var rpc *wire.Error
			if _, err := c.CallTool(ctx, "nosuch", nil); !errors.As(err, &rpc) || rpc.Code != wire.CodeInvalidParams {
				t.Fatalf("unknown tool: %v", err)
			}
			var he *wire.HTTPError
			if errors.As(err, &he) {
				t.Fatal("a JSON-RPC error must not look like an HTTP error")
			}
			if err := c.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			callsInFlight(t, c)
			f.mu.Lock()
			defer f.mu.Unlock()
			for _, v := range f.verbs {
				if v != http.MethodPost {
					t.Errorf("client sent %s", v)
				}
			}
			for i, h := range f.seen {
				wantSession, wantVersion := "sess-1", wire.ProtocolVersion
				switch f.methods[i] {
				case wire.MethodInitialize:
					wantSession, wantVersion = "", ""
				case wire.MethodDiscover: // the probe, refused with 404: a session-era server
					wantSession, wantVersion = "", wire.StatelessVersion
				}
				if h.Get("Mcp-Session-Id") != wantSession || h.Get("MCP-Protocol-Version") != wantVersion {
					t.Errorf("POST %d (%s): session %q version %q", i, f.methods[i], h.Get("Mcp-Session-Id"), h.Get("MCP-Protocol-Version"))
				}
				if h.Get("X-Key") != "k1" || h.Get("Accept") != "application/json, text/event-stream" {
					t.Errorf("POST %d headers %v", i, h)
				}
			}
		})
	}
}

// callsInFlight runs three calls that the fake answers only together.
func callsInFlight(t *testing.T, c *Client) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.CallTool(context.Background(), "gather", json.RawMessage(strconv.Itoa(i)))
			if err == nil && res.Text() != strconv.Itoa(i) {
				err = fmt.Errorf("call %d got %q", i, res.Text())
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestHTTP_RequestsOnTheStreamAreAnswered(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "ask", true)
	answersServerRequests(t, connectHTTP(t, f, Options{}))
}

// answersServerRequests checks that c answers the requests its server
// sends in the middle of a call: a ping, and roots/list, which tai does
// not offer.
func answersServerRequests(t *testing.T, c *Client) {
	t.Helper()
	res, err := c.CallTool(context.Background(), "answers", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":"s1","result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":"s2","error":{"code":-32601,"message":"method not found: roots/list"}}`
	if res.Text() != want {
		t.Fatalf("answers:\n%s\nwant:\n%s", res.Text(), want)
	}
}

func TestHTTP_LostSessionReinitializesOnce(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", false)
	c := connectHTTP(t, f, Options{})
	f.forgetSessions()
	if _, err := c.CallTool(context.Background(), "echo", nil); err != nil {
		t.Fatalf("call after the session was dropped: %v", err)
	}
	f.mu.Lock()
	inits := f.initCount
	f.mu.Unlock()
	if inits != 2 {
		t.Fatalf("%d initializations, want 2", inits)
	}
	if !strings.Contains(c.Stderr(), "initializing again") {
		t.Errorf("log %q", c.Stderr())
	}
}

func TestHTTP_PersistentNotFoundFailsAfterOneRetry(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", false)
	c := connectHTTP(t, f, Options{})
	f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
		if m.Method == wire.MethodToolsCall {
			http.Error(w, "gone", http.StatusNotFound)
			return true
		}
		return false
	}
	_, err := c.CallTool(context.Background(), "echo", nil)
	var he *wire.HTTPError
	if !errors.As(err, &he) || he.Status != 404 {
		t.Fatalf("got %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if calls := f.posts(wire.MethodToolsCall); f.initCount != 2 || calls != 2 {
		t.Fatalf("%d initializations and %d calls, want 2 and 2", f.initCount, calls)
	}
}

func TestHTTP_Faults(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", wire.HTTPMaxBody) + `"}]}}`
	tests := []struct {
		name  string
		reply func(w http.ResponseWriter, r *http.Request)
		want  string
	}{
		{"html with 200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body>\x1b[2Jlogin</body></html>"))
		}, `server answered "text/html" instead of JSON or an event stream`},
		{"garbage json", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"hello":`))
		}, "server sent what is not JSON-RPC"},
		{"500", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}, "http 500: boom"},
		{"stream closed early", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\ndata: {\"jsonrpc\""))
		}, "closed its event stream before answering"},
		{"json body over cap", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(big))
		}, "reply body over 10MiB (MCP_HTTP_MAX_BODY)"},
		{"stream body over cap", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for range 11 {
				w.Write([]byte(": " + strings.Repeat("p", 1<<20) + "\n"))
			}
		}, "over 10MiB (MCP_HTTP_MAX_BODY)"},
		{"accepted without answer", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusAccepted)
		}, "sent no answer"},
		{"stall mid-body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":2,"res`))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}, "no answer within 300ms (MCP_CALL_TIMEOUT)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			f := newHTTPFake(t, "plain", false)
			timeout := time.Hour // only the stall must meet the timeout
			if strings.Contains(tt.want, "MCP_CALL_TIMEOUT") {
				timeout = 300 * time.Millisecond
			}
			c := connectHTTP(t, f, Options{CallTimeout: timeout})
			f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
				if m.Method != wire.MethodToolsCall {
					return false
				}
				tt.reply(w, r)
				return true
			}
			_, err := c.CallTool(context.Background(), "echo", nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\x1b") {
				t.Errorf("error keeps a control character: %q", err)
			}
			if err := c.Ping(context.Background()); err != nil {
				t.Errorf("connection unusable after the fault: %v", err)
			}
		})
	}
}

func TestHTTP_UnauthorizedIsAnHTTPError(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", false)
	const challenge = `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`
	f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
		w.Header().Set("WWW-Authenticate", challenge)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return true
	}
	_, err := Connect(context.Background(), Options{Transport: f.transport()})
	var he *wire.HTTPError
	if !errors.As(err, &he) || he.Status != 401 || he.WWWAuthenticate != challenge {
		t.Fatalf("got %v", err)
	}
	var rpc *wire.Error
	if !errors.As(err, &rpc) || rpc.Code != wire.CodeHTTP {
		t.Fatalf("an HTTP error must also be an McpError: %v", err)
	}
}

func TestHTTP_RequestOverCapIsNotSent(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", false)
	c := connectHTTP(t, f, Options{})
	f.mu.Lock()
	before := len(f.seen)
	f.mu.Unlock()
	big := json.RawMessage(`"` + strings.Repeat("a", wire.HTTPMaxBody) + `"`)
	_, err := c.CallTool(context.Background(), "echo", big)
	if err == nil || !strings.Contains(err.Error(), "over 10MiB (MCP_HTTP_MAX_BODY)") {
		t.Fatalf("got %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seen) != before {
		t.Fatalf("the oversized message reached the server")
	}
}

func TestHTTP_UnknownResponseIDOnStreamIsDropped(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", true)
	c := connectHTTP(t, f, Options{})
	f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
		if m.Method != wire.MethodToolsCall {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":424242,\"result\":{}}\n\n")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\ndata: \"result\":{\"content\":[]}}\r\n\r\n", m.ID)
		return true
	}
	if _, err := c.CallTool(context.Background(), "echo", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Stderr(), "unknown request id 424242") {
		t.Errorf("log %q", c.Stderr())
	}
}

func TestHTTP_BadURL(t *testing.T) {
	_, err := Connect(context.Background(), Options{Transport: HTTP{URL: "ftp://example.invalid/x?token=secret"}})
	if err == nil || !strings.Contains(err.Error(), "not an http(s) URL") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("got %v", err)
	}
}

func TestHTTP_CloseCutsCallsInFlight(t *testing.T) {
	checkLeaks(t)
	f := newHTTPFake(t, "plain", false)
	c := connectHTTP(t, f, Options{CallTimeout: time.Hour})
	arrived := make(chan struct{})
	f.override = func(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
		if m.Method != wire.MethodToolsCall {
			return false
		}
		close(arrived)
		<-r.Context().Done()
		return true
	}
	go func() {
		<-arrived
		c.Close()
	}()
	if _, err := c.CallTool(context.Background(), "echo", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %v, want ErrClosed", err)
	}
}

// A legacy HTTP+SSE server (protocol 2024-11-05) serves its stream on GET
// and takes messages on another path, so its stream URL refuses a POST
// with 404, as Express does for a route it lacks. The error says what the
// server is and the way through.
func TestHTTP_LegacySSEServerIsNamed(t *testing.T) {
	checkLeaks(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/sse" {
			http.Error(w, "Cannot "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /messages?sessionId=1\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	_, err := Connect(context.Background(), Options{Transport: HTTP{URL: srv.URL + "/sse"}})
	var le *LegacySSEError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a LegacySSEError", err)
	}
	var he *wire.HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusNotFound {
		t.Errorf("the POST's 404 is not kept: %v", err)
	}
	for _, want := range []string{"legacy HTTP+SSE", "mcp-remote", "Streamable HTTP"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	// A plain 404 (no stream on GET) stays a plain HTTP error.
	_, err = Connect(context.Background(), Options{Transport: HTTP{URL: srv.URL + "/nothing"}})
	if errors.As(err, &le) || !errors.As(err, &he) || he.Status != http.StatusNotFound {
		t.Errorf("a plain 404: %v", err)
	}
}
