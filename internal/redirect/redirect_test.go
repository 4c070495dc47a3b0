package redirect

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://a.example/mcp", "https://A.example:443/other", true},
		{"http://a.example/x", "http://a.example:80/y", true},
		{"http://127.0.0.1:8000/", "http://127.0.0.1:8001/", false},
		{"https://a.example/", "http://a.example/", false},
		{"http://a.example/", "https://a.example/", false},
		{"https://a.example/", "https://api.a.example/", false},
		{"https://a.example/", "https://a.example.evil/", false},
		{"http://[::1]:80/", "http://[::1]/", true},
	} {
		if got := SameOrigin(mustURL(t, c.a), mustURL(t, c.b)); got != c.same {
			t.Errorf("SameOrigin(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// Check decides on the first request of the chain, the hop before and the
// target: each case is one redirect.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, method, from, to, toMethod string
		header                           map[string]string
		refuse                           string // "" follows
	}{
		{"same origin keeps credentials", "POST", "https://a.example/mcp", "https://a.example/mcp/", "POST",
			map[string]string{"Authorization": "Bearer t", "X-Api-Key": "k"}, ""},
		{"credentialed POST to another host", "POST", "https://a.example/mcp", "https://b.example/mcp", "POST",
			map[string]string{"Authorization": "Bearer t"}, "another origin"},
		{"a POST without headers still carries its body", "POST", "https://a.example/token", "https://b.example/token", "POST",
			nil, "another origin"},
		{"another port", "POST", "http://127.0.0.1:1/mcp", "http://127.0.0.1:2/mcp", "POST", nil, "another origin"},
		{"a subdomain", "GET", "https://a.example/x", "https://api.a.example/x", "GET",
			map[string]string{"X-Api-Key": "k"}, "another origin"},
		{"https to http on the same host", "GET", "https://a.example/x", "http://a.example/x", "GET", nil, "from https to http"},
		{"a POST turned into a GET", "POST", "https://a.example/token", "https://a.example/elsewhere", "GET", nil, "turn the POST into a GET"},
		{"another scheme", "GET", "https://a.example/x", "ftp://a.example/x", "GET", nil, "only http and https"},
		{"metadata GET to another origin", "GET", "https://a.example/.well-known/x", "https://auth.example/.well-known/x", "GET",
			map[string]string{"Accept": "application/json", "MCP-Protocol-Version": "2025-11-25"}, ""},
		{"a GET with a cookie", "GET", "https://a.example/x", "https://b.example/x", "GET",
			map[string]string{"Cookie": "s=1"}, "another origin"},
	} {
		t.Run(c.name, func(t *testing.T) {
			first, err := http.NewRequest(c.method, c.from, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.header {
				first.Header.Set(k, v)
			}
			next, _ := http.NewRequest(c.toMethod, c.to, nil)
			next.Header = first.Header.Clone()
			next.Response = &http.Response{StatusCode: http.StatusTemporaryRedirect}
			err = Check(next, []*http.Request{first})
			var re *Error
			switch {
			case c.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refuse != "" && (!errors.As(err, &re) || !strings.Contains(err.Error(), c.refuse)):
				t.Fatalf("err = %v, want one saying %q", err, c.refuse)
			case c.refuse != "" && (!strings.Contains(err.Error(), Origin(first.URL)) || !strings.Contains(err.Error(), Show(next.URL))):
				t.Fatalf("the error does not name both ends: %v", err)
			}
		})
	}
}

// A credential-free GET follows a redirect to another origin, which sees
// only the harmless headers, and the answer says which URL it came from.
func TestCheck_FollowsMetadataElsewhereWithoutCredentials(t *testing.T) {
	var mu sync.Mutex
	var seen http.Header
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = r.Header.Clone()
		mu.Unlock()
		io.WriteString(w, `{"ok":true}`)
	}))
	defer other.Close()
	entry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/doc", http.StatusFound)
	}))
	defer entry.Close()
	req, _ := http.NewRequest(http.MethodGet, entry.URL+"/.well-known/doc", nil)
	req.Header.Set("Accept", "application/json")
	resp, err := Client(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Request.URL.String(); got != other.URL+"/doc" {
		t.Errorf("answered from %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen.Get("Accept") != "application/json" || seen.Get("Referer") != "" {
		t.Errorf("the other origin saw %v", seen)
	}
}

func TestCheck_StopsAfterTenRedirects(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv.URL+r.URL.Path+"x", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := Client(srv.Client()).Get(srv.URL + "/")
	if err == nil || !strings.Contains(err.Error(), "more than 10 redirects") {
		t.Fatalf("err = %v", err)
	}
}
