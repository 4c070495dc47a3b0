package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Headers a call names (Authorization, a custom key, a cookie) and the
// secret's header go with redirects within the origin only. Another port
// of the same host, or https to http, is another origin, though Go's own
// rule keeps Authorization there.
func TestRedirectPolicy_CredentialsStayInTheOrigin(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]http.Header{}
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name+r.URL.Path] = r.Header.Clone()
			mu.Unlock()
		}
	}
	other := httptest.NewServer(record("other"))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landed", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/here", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/landed", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/landed", record("entry"))
	entry := httptest.NewServer(mux)
	defer entry.Close()

	secret := &secretRef{Name: "api", Header: "X-Secret-Key"}
	for _, path := range []string{"/away", "/here"} {
		u, _ := url.Parse(entry.URL + path)
		// Both servers are on loopback, and the redirect to another port
		// is allowed here so that what it carries can be seen.
		ctx := WithRedirectAllowed(loopback(context.Background()), func(context.Context, *url.URL) bool { return true })
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		for k, v := range map[string]string{"Authorization": "Bearer model-given", "X-Api-Key": "k", "Cookie": "s=1",
			"X-Secret-Key": "v", "Accept": "text/html"} {
			req.Header.Set(k, v)
		}
		var elsewhere *url.URL
		client := &http.Client{Transport: transport(), CheckRedirect: redirectPolicy(u, secret, &elsewhere)}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	away, here := seen["other/landed"], seen["entry/landed"]
	if away == nil || here == nil {
		t.Fatalf("the redirects did not land: %v", seen)
	}
	for _, k := range []string{"Authorization", "X-Api-Key", "Cookie", "X-Secret-Key"} {
		if v := away.Get(k); v != "" {
			t.Errorf("%s went to another origin: %q", k, v)
		}
		if here.Get(k) == "" {
			t.Errorf("%s was dropped within the origin", k)
		}
	}
	if away.Get("Accept") != "text/html" {
		t.Errorf("a harmless header was dropped: %v", away)
	}
	if !strings.HasPrefix(entry.URL, "http://127.0.0.1:") || !strings.HasPrefix(other.URL, "http://127.0.0.1:") {
		t.Fatalf("the two servers must share a host: %s, %s", entry.URL, other.URL)
	}
}
