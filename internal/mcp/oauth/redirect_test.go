package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/oauth/oauthtest"
)

// recorder is a server on another origin that records what reached it.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []http.Header
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.seen = append(r.seen, req.Header.Clone())
		r.mu.Unlock()
		http.Error(w, "not here", http.StatusTeapot)
	}))
	t.Cleanup(r.Close)
	return r
}

// requests fails the test on any request that carried a credential and
// returns how many came.
func (r *recorder) requests(t *testing.T) int {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, h := range r.seen {
		if h.Get("Authorization") != "" || h.Get("Cookie") != "" {
			t.Errorf("request %d to the other origin carried credentials: %v", i, h)
		}
	}
	return len(r.seen)
}

// The login's bearer token goes only to the origin it was issued for,
// whatever redirect policy the client around the transport has: here Go's
// default one, which follows a 307 to another port.
func TestTransport_NeverSendsTheTokenToAnotherOrigin(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	other := newRecorder(t)
	hc := &http.Client{Transport: &Transport{Tokens: tk}}

	fake.RedirectMCP(http.StatusTemporaryRedirect, other.URL+"/mcp")
	_, err := listTools(t, hc, fake.URL)
	if err == nil || !strings.Contains(err.Error(), other.URL) || !strings.Contains(err.Error(), "`tai mcp login srv`") {
		t.Fatalf("err = %v", err)
	}
	if _, err := listTools(t, hc, other.URL+"/mcp"); err == nil {
		t.Fatal("a request straight to another origin went out with the login")
	}
	if n := other.requests(t); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
	if st := fake.Stats(); st.Bearers != 1 {
		t.Errorf("the fake saw %d bearer requests, want the one it redirected", st.Bearers)
	}
}

// Token and registration requests carry a client secret, a code or a
// refresh token: a redirect elsewhere is refused, even with a client
// (http.DefaultClient) that would follow it.
func TestOAuthRequests_RedirectElsewhereIsRefused(t *testing.T) {
	ctx := context.Background()
	for name, send := range map[string]func(endpoint string) error{
		"token": func(endpoint string) error {
			form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"refresh-secret"}}
			_, err := tokenRequest(ctx, http.DefaultClient, endpoint, Client{ID: "c", Secret: "client-secret", AuthMethod: AuthBasic}, form, time.Now())
			return err
		},
		"registration": func(endpoint string) error {
			_, err := Register(ctx, http.DefaultClient, ServerMetadata{Issuer: endpoint, RegistrationEndpoint: endpoint}, "http://127.0.0.1:1/cb", nil)
			return err
		},
	} {
		for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			t.Run(name+"/"+http.StatusText(status), func(t *testing.T) {
				other := newRecorder(t)
				front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, other.URL+"/token", status)
				}))
				defer front.Close()
				err := send(front.URL + "/token")
				if err == nil || !strings.Contains(err.Error(), other.URL+"/token") || !strings.Contains(err.Error(), front.URL) {
					t.Fatalf("err = %v", err)
				}
				if n := other.requests(t); n != 0 {
					t.Errorf("the other origin got %d requests", n)
				}
			})
		}
	}
}

// A server whose metadata moved to its authorization server (a redirect
// from its own well-known URL, as some hosted servers do) is logged in to
// there, and the consent names the host that answered, not the one that
// redirected.
func TestDiscover_NamesTheHostThatAnswered(t *testing.T) {
	auth := (&oauthtest.Server{Legacy: true}).Start(t)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-authorization-server" {
			if r.Header.Get("Authorization") != "" {
				t.Errorf("discovery sent credentials: %v", r.Header)
			}
			http.Redirect(w, r, auth.Issuer+r.URL.Path, http.StatusFound)
			return
		}
		http.NotFound(w, r)
	}))
	defer front.Close()
	d, err := Discover(context.Background(), http.DefaultClient, front.URL+"/mcp", Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Issuer != auth.Issuer || d.Server.TokenEndpoint != auth.Issuer+"/token" {
		t.Fatalf("issuer %s, token endpoint %s; want those of %s", d.Issuer, d.Server.TokenEndpoint, auth.Issuer)
	}
}
