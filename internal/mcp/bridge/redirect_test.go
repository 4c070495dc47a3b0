package bridge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"tai/internal/mcp/oauth/oauthtest"
)

// A logged-in server that starts answering with a redirect to another
// origin gets neither the bearer token of a real login nor the entry's
// static headers sent there, and the failure names both origins and what
// to do.
func TestCall_RedirectElsewhereSendsNoCredentials(t *testing.T) {
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			fake := (&oauthtest.Server{}).Start(t)
			f.withLogin(fake)
			var mu sync.Mutex
			var seen []http.Header
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, r.Header.Clone())
				mu.Unlock()
				http.Error(w, "not here", http.StatusTeapot)
			}))
			defer other.Close()
			e := httpEntry("remote", fake.URL)
			e.Headers = map[string]string{"X-Api-Key": "key-secret"}
			f.add(t, e, false)
			if _, err := f.b.Login(ctx, "remote"); err != nil {
				t.Fatal(err)
			}
			bearers := fake.Stats().Bearers

			fake.RedirectMCP(status, other.URL+"/mcp")
			_, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{"message":"hi"}`))
			if err == nil {
				t.Fatal("the call went through a redirect to another origin")
			}
			wantContains(t, "the error", err.Error(), "remote", fake.Issuer, other.URL+"/mcp", "register")
			if fake.Stats().Bearers <= bearers {
				t.Error("the redirecting request carried no token: the test proves nothing")
			}
			mu.Lock()
			defer mu.Unlock()
			for i, h := range seen {
				if h.Get("Authorization") != "" || h.Get("X-Api-Key") != "" {
					t.Errorf("request %d to the other origin carried credentials: %v", i, h)
				}
			}
			if len(seen) != 0 {
				t.Errorf("the other origin got %d requests", len(seen))
			}
		})
	}
}
