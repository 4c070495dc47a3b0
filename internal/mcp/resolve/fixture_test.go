package resolve

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"tai/internal/mcp/config"
	"tai/internal/mcp/resolve/githubtest"
)

// fakeGitHub serves the fixture repositories under testdata/repos:
// acme/secret-mcp is private and acme/busy-mcp rate limited.
func fakeGitHub(t *testing.T) (*githubtest.API, *GitHub) {
	t.Helper()
	api := &githubtest.API{Files: os.DirFS("testdata/repos"),
		Private:     map[string]bool{"acme/secret-mcp": true},
		RateLimited: map[string]bool{"acme/busy-mcp": true}}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return api, &GitHub{BaseURL: srv.URL, Client: srv.Client()}
}

// ref reads a GitHub link as Normalize does.
func ref(t *testing.T, link string) *config.GitHubRef {
	t.Helper()
	_, err := config.Normalize(link, config.Options{})
	g, ok := err.(*config.GitHubRef)
	if !ok {
		t.Fatalf("%s: %v, want a GitHub link", link, err)
	}
	return g
}

// namesBothPasses fails unless msg names both passes.
func namesBothPasses(t *testing.T, msg string) {
	t.Helper()
	if !strings.Contains(msg, "Deterministic pass: ") || !strings.Contains(msg, "Agent pass: ") {
		t.Errorf("the failure does not name both passes: %s", msg)
	}
	if strings.ContainsAny(msg, "\n\r\x1b") {
		t.Errorf("the failure is not one printable line: %q", msg)
	}
}
