package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"tai/internal/netaddr"
	"tai/internal/tools"
)

const rule = "; tai reaches local and private addresses only for hosts you approve by name"

// counted is a test server that counts the requests it answers.
func counted(t *testing.T, body string) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// useEgress makes the web tools go out through e for the rest of t.
func useEgress(t *testing.T, e *egress) {
	old := transport
	transport = func() http.RoundTripper { return e }
	t.Cleanup(func() {
		e.CloseIdleConnections()
		transport = old
	})
}

// zone is a resolver answering from a table; any other name fails t.
func zone(t *testing.T, names map[string][]string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		addrs, ok := names[host]
		if !ok {
			t.Errorf("unexpected look-up of %q", host)
			return nil, fmt.Errorf("no such host %q", host)
		}
		var out []netip.Addr
		for _, a := range addrs {
			out = append(out, netip.MustParseAddr(a))
		}
		return out, nil
	}
}

func allowOnly(hosts ...string) HostAllow {
	return func(_ context.Context, host string) bool {
		for _, h := range hosts {
			if h == host {
				return true
			}
		}
		return false
	}
}

func TestEgress_LoopbackRefusedUnlessApprovedByName(t *testing.T) {
	srv, hits := counted(t, "local page")
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	bg := context.Background()

	res := callCtx(t, bg, Fetch(), &tools.Env{}, urlArgs(srv.URL, ""))
	wantError(t, res, "web_fetch: GET "+srv.URL+": refused: 127.0.0.1 is a loopback address"+rule)
	res = callCtx(t, bg, Request(), &tools.Env{}, urlArgs(fmt.Sprintf("http://localhost:%d/", port), ""))
	wantError(t, res, "refused: localhost is a loopback name"+rule)

	ok := WithLocalAllowed(bg, allowOnly("127.0.0.1"))
	if res := callCtx(t, ok, Fetch(), &tools.Env{}, urlArgs(srv.URL, "")); res.IsError || !strings.HasSuffix(res.Text, "local page") {
		t.Fatalf("approved by name: %+v", res)
	}
	// The approved request's connection serves no later request without
	// the approval: the pool never holds one.
	wantError(t, callCtx(t, bg, Fetch(), &tools.Env{}, urlArgs(srv.URL, "")), "refused: 127.0.0.1 is a loopback address")
	other := WithLocalAllowed(bg, allowOnly("example.com"))
	wantError(t, callCtx(t, other, Fetch(), &tools.Env{}, urlArgs(srv.URL, "")), "refused: 127.0.0.1 is a loopback address")
	if n := hits.Load(); n != 1 {
		t.Fatalf("the server answered %d requests, want only the approved one", n)
	}
}

// A name that passes every check on its name but resolves to a loopback
// address (DNS rebinding) is refused on the address dialled.
func TestEgress_RebindingNameRefusedOnItsAddress(t *testing.T) {
	srv, hits := counted(t, "inside")
	_, port, _ := strings.Cut(srv.Listener.Addr().String(), ":")
	useEgress(t, newEgress(zone(t, map[string][]string{
		"rebind.example": {"127.0.0.1"},
		"mixed.example":  {"10.0.0.5", "127.0.0.1"},
	}), nil))
	if kind := netaddr.NameKind("rebind.example"); kind != "" {
		t.Fatalf("the name alone is judged %q; the test needs a name that looks public", kind)
	}
	bg := context.Background()
	u := "http://rebind.example:" + port + "/"
	wantError(t, callCtx(t, bg, Fetch(), &tools.Env{}, urlArgs(u, "")),
		"web_fetch: GET "+u+": refused: rebind.example resolved to 127.0.0.1, a loopback address"+rule)
	wantError(t, callCtx(t, bg, Fetch(), &tools.Env{}, urlArgs("http://mixed.example:"+port+"/", "")),
		"refused: mixed.example resolved to 10.0.0.5, a private address"+rule)
	if hits.Load() != 0 {
		t.Fatal("the server was reached")
	}
	ok := WithLocalAllowed(bg, allowOnly("rebind.example"))
	if res := callCtx(t, ok, Fetch(), &tools.Env{}, urlArgs(u, "")); res.IsError || !strings.HasSuffix(res.Text, "inside") {
		t.Fatalf("approved by name: %+v", res)
	}
}

func TestEgress_MetadataNamesRefusedWithoutLookUp(t *testing.T) {
	useEgress(t, newEgress(zone(t, nil), nil))
	for _, host := range []string{"metadata.google.internal", "METADATA.google.internal.", "instance-data"} {
		wantError(t, callCtx(t, context.Background(), Fetch(), &tools.Env{}, urlArgs("http://"+host+"/computeMetadata/v1/", "")),
			"refused: "+host+" is a cloud metadata name"+rule)
	}
	wantError(t, callCtx(t, context.Background(), Fetch(), &tools.Env{}, urlArgs("http://169.254.169.254/latest/meta-data/", "")),
		"refused: 169.254.169.254 is the cloud metadata address"+rule)
	wantError(t, callCtx(t, context.Background(), Fetch(), &tools.Env{}, urlArgs("http://[fd00:ec2::254]/latest/", "")),
		"refused: fd00:ec2::254 is the cloud metadata address"+rule)
}

// twoHosts serves from (redirecting /go to to's /landed) and to, both on
// loopback and approved by name.
func twoHosts(t *testing.T) (from, to *httptest.Server, landed *atomic.Int32) {
	to, landed = counted(t, "landed")
	mux := http.NewServeMux()
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+"/landed", http.StatusFound)
	})
	mux.HandleFunc("/here", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/stay", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/stay", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "stayed") })
	from = httptest.NewServer(mux)
	t.Cleanup(from.Close)
	return from, to, landed
}

func TestEgress_RedirectToAnotherHostIsReported(t *testing.T) {
	from, to, landed := twoHosts(t)
	ctx := loopback(context.Background())
	res := callCtx(t, ctx, Fetch(), &tools.Env{}, urlArgs(from.URL+"/go", ""))
	want := from.URL + "/go redirected to another host: " + to.URL + "/landed\nThe redirect was not followed. Call web_fetch with that URL to fetch it"
	if res.IsError || !strings.HasPrefix(res.Text, want) {
		t.Fatalf("got %+v\nwant a result starting %q", res, want)
	}
	got := mustRun(t, Request(), &tools.Env{}, urlArgs(from.URL+"/go", ""))
	for _, part := range []string{"HTTP/1.1 302 Found\n", "Location: " + to.URL + "/landed\n", "redirected to another host: " + to.URL + "/landed\nThe redirect was not followed. Call http_request"} {
		if !strings.Contains(got, part) {
			t.Errorf("http_request result lacks %q:\n%s", part, got)
		}
	}
	if landed.Load() != 0 {
		t.Fatal("the other host was reached")
	}

	var asked []string
	var mu sync.Mutex
	allow := WithRedirectAllowed(ctx, func(_ context.Context, u *url.URL) bool {
		mu.Lock()
		asked = append(asked, u.String())
		mu.Unlock()
		return true
	})
	if got := mustRunCtx(t, allow, Fetch(), urlArgs(from.URL+"/go", "")); got != "URL: "+to.URL+"/landed\n\nlanded" {
		t.Fatalf("allowed redirect: %q", got)
	}
	if len(asked) != 1 || asked[0] != to.URL+"/landed" {
		t.Fatalf("RedirectAllow asked about %q", asked)
	}
}

func TestEgress_SameHostRedirectFollowed(t *testing.T) {
	from, _, _ := twoHosts(t)
	if got := mustRun(t, Fetch(), &tools.Env{}, urlArgs(from.URL+"/here", "")); got != "URL: "+from.URL+"/stay\n\nstayed" {
		t.Fatalf("got %q", got)
	}
	a, _ := url.Parse("http://Example.com/a")
	for to, want := range map[string]bool{
		"https://example.com/b":     true,
		"http://example.com:80/b":   true,
		"http://example.com:8080/b": false,
		"http://www.example.com/":   false,
	} {
		b, _ := url.Parse(to)
		if got := sameHost(a, b); got != want {
			t.Errorf("sameHost(%s, %s) = %v", a, b, got)
		}
	}
	b, _ := url.Parse("https://example.com/")
	c, _ := url.Parse("http://example.com/")
	if sameHost(b, c) {
		t.Error("https to http is not the same host")
	}
}

// A proxy from the environment is dialled wherever it is; the target it
// would fetch is checked by tai first.
func TestEgress_ProxyDialledTargetChecked(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		io.WriteString(w, "via proxy")
	}))
	t.Cleanup(proxy.Close)
	pu, _ := url.Parse(proxy.URL)
	useEgress(t, newEgress(zone(t, map[string][]string{
		"public.example": {"93.184.216.34"},
		"inner.example":  {"93.184.216.34", "10.0.0.5"},
	}), http.ProxyURL(pu)))
	bg := context.Background()
	if got := mustRunCtx(t, bg, Fetch(), urlArgs("http://public.example/x", "")); !strings.HasSuffix(got, "via proxy") {
		t.Fatalf("through the proxy: %q", got)
	}
	wantError(t, callCtx(t, bg, Fetch(), &tools.Env{}, urlArgs("http://inner.example/", "")),
		"refused: inner.example resolved to 10.0.0.5, a private address"+rule)
	if len(seen) != 1 || seen[0] != "http://public.example/x" {
		t.Fatalf("the proxy saw %q", seen)
	}
}

func mustRunCtx(t *testing.T, ctx context.Context, tl *tools.Tool, args string) string {
	t.Helper()
	res := callCtx(t, ctx, tl, &tools.Env{}, args)
	if res.IsError {
		t.Fatalf("%s(%s): tool error: %s", tl.Name, args, res.Text)
	}
	return res.Text
}
