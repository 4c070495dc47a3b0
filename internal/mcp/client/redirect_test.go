package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// headerLog records the headers of every request a server saw.
type headerLog struct {
	mu   sync.Mutex
	seen []http.Header
}

func (l *headerLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.seen = append(l.seen, r.Header.Clone())
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *headerLog) requests() []http.Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]http.Header(nil), l.seen...)
}

// credentials are what an entry's headers send: an Authorization header
// and a custom key.
var credentials = map[string]string{"Authorization": "Bearer static-secret", "X-Api-Key": "key-secret"}

// A server answering with a redirect to another origin (here another port
// of the same host, which Go's own rules treat as the same host) gets no
// request there at all: the connection fails naming both origins and
// saying what to do.
func TestHTTP_RedirectToAnotherOriginIsRefused(t *testing.T) {
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			checkLeaks(t)
			var other headerLog
			target := httptest.NewServer(other.wrap(newHTTPFake(t, "plain", false)))
			t.Cleanup(target.Close)
			entry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target.URL+"/mcp", status)
			}))
			t.Cleanup(entry.Close)

			_, err := Connect(context.Background(), Options{Transport: HTTP{URL: entry.URL + "/mcp", Headers: credentials}})
			if err == nil {
				t.Fatal("connected through a redirect to another origin")
			}
			for _, want := range []string{entry.URL, target.URL + "/mcp", "register", "http " + strconv.Itoa(status)} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not name %q: %v", want, err)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the error is more than one line: %q", err)
			}
			for i, h := range other.requests() {
				if h.Get("Authorization") != "" || h.Get("X-Api-Key") != "" {
					t.Errorf("request %d to the other origin carried credentials: %v", i, h)
				}
			}
			if n := len(other.requests()); n != 0 {
				t.Errorf("the other origin got %d requests", n)
			}
		})
	}
}

// A redirect within the origin (/mcp to /mcp/) is followed with the
// entry's headers, and the session works through it.
func TestHTTP_RedirectWithinTheOriginIsFollowed(t *testing.T) {
	checkLeaks(t)
	var seen headerLog
	fake := newHTTPFake(t, "plain", false)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp/", http.StatusPermanentRedirect)
	})
	mux.Handle("/mcp/", seen.wrap(fake))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	c, err := Connect(context.Background(), Options{Transport: HTTP{URL: srv.URL + "/mcp", Headers: credentials}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if tools, err := c.ListTools(context.Background()); err != nil || len(tools) != 1 {
		t.Fatalf("tools %v, %v", tools, err)
	}
	got := seen.requests()
	if len(got) < 2 {
		t.Fatalf("the redirected endpoint saw %d requests", len(got))
	}
	for i, h := range got {
		if h.Get("Authorization") != credentials["Authorization"] || h.Get("X-Api-Key") != credentials["X-Api-Key"] {
			t.Errorf("request %d lost the entry's headers: %v", i, h)
		}
	}
}

// A client passed in (here the TLS test server's, which follows every
// redirect by itself) gets the same policy: https to http is refused.
func TestHTTP_PassedInClientKeepsThePolicy(t *testing.T) {
	checkLeaks(t)
	var other headerLog
	plain := httptest.NewServer(other.wrap(newHTTPFake(t, "plain", false)))
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(secure.Close)
	hc := secure.Client()
	_, err := Connect(context.Background(), Options{Transport: HTTP{URL: secure.URL + "/mcp", Headers: credentials, HTTPClient: hc}})
	if err == nil || !strings.Contains(err.Error(), "https to http") || !strings.Contains(err.Error(), plain.URL) {
		t.Fatalf("err = %v", err)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the plain-http origin got %d requests", n)
	}
	if hc.CheckRedirect != nil {
		t.Error("the caller's client was changed")
	}
	hc.CloseIdleConnections()
}
