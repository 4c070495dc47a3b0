package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"tai/internal/tools"
)

// loopback approves every host by name for local addresses: the test
// servers listen on 127.0.0.1, which the web tools otherwise refuse.
func loopback(ctx context.Context) context.Context {
	return WithLocalAllowed(ctx, func(context.Context, string) bool { return true })
}

// call runs tl the way the agent does, with every host approved.
func call(t *testing.T, tl *tools.Tool, env *tools.Env, args string) tools.Result {
	t.Helper()
	return callCtx(t, loopback(context.Background()), tl, env, args)
}

func callCtx(t *testing.T, ctx context.Context, tl *tools.Tool, env *tools.Env, args string) tools.Result {
	t.Helper()
	res, err := tools.Invoke(ctx, tl, tools.Call{ID: "c1", Args: json.RawMessage(args), Env: env}, tools.Via{})
	if err != nil {
		t.Fatalf("%s(%s): %v", tl.Name, args, err)
	}
	return res.Result
}

// mustRun is call that also fails t on a tool error, returning the text.
func mustRun(t *testing.T, tl *tools.Tool, env *tools.Env, args string) string {
	t.Helper()
	res := call(t, tl, env, args)
	if res.IsError {
		t.Fatalf("%s(%s): tool error: %s", tl.Name, args, res.Text)
	}
	return res.Text
}

func wantError(t *testing.T, res tools.Result, part string) {
	t.Helper()
	if !res.IsError || !strings.Contains(res.Text, part) {
		t.Errorf("got %+v, want a tool error containing %q", res, part)
	}
}

func urlArgs(u string, extra string) string {
	b, _ := json.Marshal(u)
	return `{"url": ` + string(b) + extra + `}`
}

// site serves the pages the fetch tests read.
func site(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><head><title>Hello</title><script>alert(1)</script></head>
			<body><h1>Welcome</h1><p>See <a href="/docs">the docs</a>.</p></body></html>`)
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"a": [1, 2]}`)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=ISO-8859-1")
		w.Write([]byte("caf\xe9"))
	})
	mux.HandleFunc("/image.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := strings.Repeat("x", 99) + "\n"
		for range 60000 { // 6 MB
			io.WriteString(w, line)
		}
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page here", http.StatusNotFound)
	})
	// /hops/N redirects N times before answering.
	mux.HandleFunc("/hops/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hops/"))
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/hops/%d", n-1), http.StatusFound)
			return
		}
		io.WriteString(w, "arrived")
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestFetch_HTMLBecomesText(t *testing.T) {
	srv := site(t)
	got := mustRun(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/page", ""))
	want := "URL: " + srv.URL + "/page\nTitle: Hello\n\n# Welcome\n\nSee [the docs](" + srv.URL + "/docs)."
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	raw := mustRun(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/page", `, "raw": true`))
	if !strings.Contains(raw, "<script>alert(1)</script>") {
		t.Fatalf("raw fetch converted the page: %q", raw)
	}
}

func TestFetch_TextTypes(t *testing.T) {
	srv := site(t)
	if got := mustRun(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/data.json", "")); !strings.HasSuffix(got, "\n\n{\"a\": [1, 2]}") {
		t.Errorf("json: %q", got)
	}
	if got := mustRun(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/latin1", "")); !strings.HasSuffix(got, "\n\ncafé") {
		t.Errorf("latin-1: %q", got)
	}
}

func TestFetch_Redirects(t *testing.T) {
	srv := site(t)
	got := mustRun(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/hops/5", ""))
	if got != "URL: "+srv.URL+"/hops/0\n\narrived" {
		t.Fatalf("five redirects: %q", got)
	}
	wantError(t, call(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/hops/6", "")),
		"web_fetch: GET "+srv.URL+"/hops/6: stopped after 5 redirects (the limit)")
}

func TestFetch_OnlyHTTP(t *testing.T) {
	srv := site(t)
	wantError(t, call(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/to-file", "")), "refused a redirect to file:///etc/passwd: only http and https are followed")
	for _, u := range []string{"file:///etc/passwd", "ftp://example.com/x", "gopher://x"} {
		wantError(t, call(t, Fetch(), &tools.Env{}, urlArgs(u, "")), `argument "url"`)
	}
}

func TestFetch_BodyIsCapped(t *testing.T) {
	srv := site(t)
	got := mustRun(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/huge", ""))
	if len(got) > showHead+showTail+300 {
		t.Errorf("result is %d bytes", len(got))
	}
	for _, want := range []string{" bytes elided …]\n", "[body over 5,242,880 bytes: the rest was not downloaded]"} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q", want)
		}
	}
}

func TestFetch_BadResponses(t *testing.T) {
	srv := site(t)
	wantError(t, call(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/image.png", "")), "/image.png is image/png (10 bytes), not text")
	res := call(t, Fetch(), &tools.Env{}, urlArgs(srv.URL+"/missing", ""))
	wantError(t, res, "web_fetch: GET "+srv.URL+"/missing: 404 Not Found\n\nno such page here")
}

func TestFetch_ClosedPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	wantError(t, call(t, Fetch(), &tools.Env{}, urlArgs("http://"+addr+"/", "")),
		"web_fetch: GET http://"+addr+"/: connection refused: nothing is listening at "+addr)
}

func TestFetch_Cancel(t *testing.T) {
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(loopback(context.Background()))
	go func() {
		<-arrived
		cancel()
	}()
	res, err := tools.Invoke(ctx, Fetch(), tools.Call{Args: json.RawMessage(urlArgs(srv.URL, "")), Env: &tools.Env{}}, tools.Via{})
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, res.Result, "GET "+srv.URL+": cancelled")
}

func TestFetch_SafeOnlyWithoutSecret(t *testing.T) {
	if !Fetch().IsSafe(tools.Call{Args: json.RawMessage(`{"url": "https://example.com"}`)}) {
		t.Error("a plain fetch only reads; want safe")
	}
	withSecret := json.RawMessage(`{"url": "https://example.com", "secret": {"name": "TOKEN", "header": "Authorization"}}`)
	if Fetch().IsSafe(tools.Call{Args: withSecret}) {
		t.Error("a fetch that sends a secret must ask")
	}
	c := Fetch().ConsentFor(tools.Call{Args: withSecret})
	if c.Title != "web_fetch: GET https://example.com with secret TOKEN" || !strings.Contains(c.Detail, "Authorization: [secret TOKEN from the vault, not shown]") {
		t.Errorf("consent %+v", c)
	}
}
