package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// docServer serves JSON documents by path ({base} stands for its own URL)
// and records every path asked for.
type docServer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	hits []string
}

func newDocServer(t *testing.T, docs map[string]string) *docServer {
	d := &docServer{}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.hits = append(d.hits, r.URL.Path)
		d.mu.Unlock()
		body, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(body, "{base}", d.srv.URL)))
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *docServer) paths() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.hits...)
}

func asDoc(issuerPath string) string {
	return `{"issuer":"{base}` + issuerPath + `","authorization_endpoint":"{base}` + issuerPath + `/authorize",` +
		`"token_endpoint":"{base}` + issuerPath + `/token","registration_endpoint":"{base}` + issuerPath + `/register",` +
		`"code_challenge_methods_supported":["S256"]}`
}

func TestDiscover_Locations(t *testing.T) {
	prm := func(resource, as string, scopes string) string {
		doc := `{"resource":"{base}` + resource + `","authorization_servers":["{base}` + as + `"]`
		if scopes != "" {
			doc += `,"scopes_supported":` + scopes
		}
		return doc + "}"
	}
	cases := []struct {
		name      string
		docs      map[string]string
		challenge Challenge // {base} in ResourceMetadata
		wantPaths []string
		wantToken string // token endpoint path
		scopes    []string
		legacy    bool
		defaulted bool
	}{
		{name: "prm from the challenge, RFC 8414 at the root",
			docs:      map[string]string{"/custom/prm.json": prm("/mcp", "", ""), "/.well-known/oauth-authorization-server": asDoc("")},
			challenge: Challenge{ResourceMetadata: "{base}/custom/prm.json", Scope: "mcp:basic"},
			wantPaths: []string{"/custom/prm.json", "/.well-known/oauth-authorization-server"},
			wantToken: "/token", scopes: []string{"mcp:basic"}},
		{name: "path-aware prm first, OpenID Connect after RFC 8414",
			docs: map[string]string{"/.well-known/oauth-protected-resource/mcp": prm("/mcp", "", `["a","b"]`),
				"/.well-known/openid-configuration": asDoc("")},
			wantPaths: []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"},
			wantToken: "/token", scopes: []string{"a", "b"}},
		{name: "root prm after the path-aware one, issuer with a path: RFC 8414 path-insert",
			docs: map[string]string{"/.well-known/oauth-protected-resource": prm("", "/tenant1", ""),
				"/.well-known/oauth-authorization-server/tenant1": asDoc("/tenant1")},
			wantPaths: []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource",
				"/.well-known/oauth-authorization-server/tenant1"},
			wantToken: "/tenant1/token"},
		{name: "issuer with a path: OpenID Connect path-insert, then path-append, never the root",
			docs: map[string]string{"/.well-known/oauth-protected-resource/mcp": prm("/mcp", "/tenant1", ""),
				"/tenant1/.well-known/openid-configuration": asDoc("/tenant1")},
			wantPaths: []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/tenant1",
				"/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"},
			wantToken: "/tenant1/token"},
		{name: "no prm: 2025-03-26 metadata at the origin",
			docs: map[string]string{"/.well-known/oauth-authorization-server": asDoc("/oauth")},
			wantPaths: []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource",
				"/.well-known/oauth-authorization-server"},
			wantToken: "/oauth/token", legacy: true},
		{name: "nothing published: 2025-03-26 default endpoints",
			docs: map[string]string{},
			wantPaths: []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource",
				"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"},
			wantToken: "/token", legacy: true, defaulted: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := newDocServer(t, c.docs)
			ch := c.challenge
			ch.ResourceMetadata = strings.ReplaceAll(ch.ResourceMetadata, "{base}", ds.srv.URL)
			d, err := Discover(context.Background(), ds.srv.Client(), ds.srv.URL+"/mcp", ch)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.wantPaths, ds.paths()); diff != "" {
				t.Errorf("paths asked (-want +got):\n%s", diff)
			}
			if d.Server.TokenEndpoint != ds.srv.URL+c.wantToken {
				t.Errorf("token endpoint = %s", d.Server.TokenEndpoint)
			}
			if diff := cmp.Diff(c.scopes, d.Scopes); diff != "" {
				t.Errorf("scopes (-want +got):\n%s", diff)
			}
			if d.Legacy != c.legacy || d.Defaulted != c.defaulted {
				t.Errorf("legacy, defaulted = %v, %v", d.Legacy, d.Defaulted)
			}
			if !strings.HasPrefix(d.Resource, ds.srv.URL) {
				t.Errorf("resource = %s", d.Resource)
			}
		})
	}
}

func TestDiscover_Refusals(t *testing.T) {
	goodPRM := `{"resource":"{base}/mcp","authorization_servers":["{base}"]}`
	cases := []struct {
		name string
		docs map[string]string
		want string
	}{
		{"resource of another server", map[string]string{
			"/.well-known/oauth-protected-resource/mcp": `{"resource":"https://evil.example.com/mcp","authorization_servers":["{base}"]}`},
			"protected-resource metadata is for https://evil.example.com/mcp"},
		{"no authorization server", map[string]string{"/.well-known/oauth-protected-resource/mcp": `{"resource":"{base}/mcp"}`},
			"names no authorization server"},
		{"authorization server without metadata", map[string]string{"/.well-known/oauth-protected-resource/mcp": goodPRM},
			"publishes no metadata"},
		{"issuer mismatch", map[string]string{"/.well-known/oauth-protected-resource/mcp": goodPRM,
			"/.well-known/oauth-authorization-server": strings.Replace(asDoc(""), `"issuer":"{base}"`, `"issuer":"https://other.example"`, 1)},
			`serves metadata for issuer "https://other.example"`},
		{"no S256", map[string]string{"/.well-known/oauth-protected-resource/mcp": goodPRM,
			"/.well-known/oauth-authorization-server": strings.Replace(asDoc(""), `["S256"]`, `["plain"]`, 1)},
			"does not offer PKCE with S256"},
		{"not JSON", map[string]string{"/.well-known/oauth-protected-resource/mcp": `<html>`},
			"is not a JSON metadata document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := newDocServer(t, c.docs)
			_, err := Discover(context.Background(), ds.srv.Client(), ds.srv.URL+"/mcp", Challenge{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to say %q", err, c.want)
			}
		})
	}
}

func TestResourceMatches(t *testing.T) {
	u, _ := httpURL("https://Mcp.Example.com/api/mcp", "")
	for res, want := range map[string]bool{
		"https://mcp.example.com/api/mcp":  true,
		"https://mcp.example.com/api/mcp/": true,
		"https://mcp.example.com/api":      true,
		"https://mcp.example.com":          true,
		"https://mcp.example.com/ap":       false,
		"https://mcp.example.com/other":    false,
		"http://mcp.example.com/api/mcp":   false,
		"https://evil.example.com/api/mcp": false,
	} {
		if got := resourceMatches(res, u); got != want {
			t.Errorf("resourceMatches(%s) = %v", res, got)
		}
	}
}
