package resolve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/config"
)

func TestFind_Deterministic(t *testing.T) {
	tests := []struct {
		link     string
		want     config.Entry
		from     string // the step that yielded
		evidence []string
	}{
		{"https://github.com/acme/weather-mcp",
			config.Entry{Name: "weather", Transport: config.Stdio, Command: "npx",
				Args: []string{"-y", "@acme/weather-mcp@1.4.2", "--units", "metric"},
				Env:  map[string]string{"WEATHER_API_KEY": "${WEATHER_API_KEY}", "LOG_LEVEL": "info"}},
			"server.json", []string{"(root): no mcp.json or .mcp.json", "server.json: npm package @acme/weather-mcp over stdio"}},
		{"https://github.com/acme/notes-mcp",
			config.Entry{Name: "notes", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "notes-mcp-server"}},
			"package.json", []string{"(root): no mcp.json, .mcp.json or server.json", "package.json: package notes-mcp-server has a bin: npx -y notes-mcp-server"}},
		{"github.com/acme/fetch-py",
			config.Entry{Name: "acme-mcp-fetch", Transport: config.Stdio, Command: "uvx", Args: []string{"acme-mcp-fetch"}},
			"README.md", []string{"(root): no mcp.json, .mcp.json, server.json or package.json", "README.md: run block uvx acme-mcp-fetch"}},
		{"https://github.com/acme/servers/tree/main/src/memory",
			config.Entry{Name: "memory", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "@acme/server-memory"}},
			"src/memory/package.json", []string{"src/memory: no mcp.json, .mcp.json or server.json", "src/memory/package.json: package @acme/server-memory has a bin: npx -y @acme/server-memory"}},
		{"https://github.com/acme/servers/tree/main/src/git",
			config.Entry{Name: "acme-server-git", Transport: config.Stdio, Command: "uvx", Args: []string{"acme-server-git", "--repository", "path/to/git/repo"}},
			"src/git/README.md", nil},
		{"https://github.com/acme/servers/blob/main/src/time/README.md",
			config.Entry{Name: "time", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "@acme/server-time"}},
			"src/time/README.md", nil},
		{"https://github.com/acme/checkout-mcp",
			config.Entry{Name: "checkout", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "checkout-mcp@latest", "--verbose"},
				Env: map[string]string{"CHECKOUT_TOKEN": "${CHECKOUT_TOKEN}"}},
			"README.md", []string{"(root): no mcp.json, server.json or package.json",
				".mcp.json: checkout runs dist/index.js from a checkout, and tai does not clone repositories",
				"README.md: run block npx -y checkout-mcp@latest --verbose"}},
	}
	for _, tt := range tests {
		t.Run(tt.link, func(t *testing.T) {
			_, gh := fakeGitHub(t)
			r := &Resolver{GitHub: gh}
			res, err := r.Find(context.Background(), ref(t, tt.link))
			if err != nil {
				t.Fatal(err)
			}
			if res.Pass != PassDeterministic || res.Agent != "" || len(res.Entries) != 1 {
				t.Fatalf("resolution = %+v", res)
			}
			got := res.Entries[0]
			owner, repo, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(tt.link, "https://"), "github.com/"), "/")
			repo, _, _ = strings.Cut(repo, "/")
			if got.Source != "github:"+owner+"/"+repo {
				t.Errorf("source = %q", got.Source)
			}
			if n := got.Notes[len(got.Notes)-1]; n != "found in "+tt.from+" of github.com/"+owner+"/"+repo {
				t.Errorf("last note = %q", n)
			}
			got.Source, got.Notes = "", nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entry (-want +got):\n%s", diff)
			}
			var saw []string
			for _, s := range res.Static {
				saw = append(saw, s.String())
			}
			if tt.evidence != nil {
				if diff := cmp.Diff(tt.evidence, saw); diff != "" {
					t.Errorf("evidence (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestFind_NothingFound: repositories where the deterministic pass finds
// nothing, and no runner is given for the agent pass. Every failure names
// both passes and what the deterministic one saw.
func TestFind_NothingFound(t *testing.T) {
	tests := []struct {
		link string
		is   error
		want []string
	}{
		{"https://github.com/acme/nothing", nil, []string{
			"(root): no mcp.json, .mcp.json, server.json or package.json; README.md: no npx or uvx run block for this server",
			"Agent pass: not available here (no subagent runner)"}},
		{"https://github.com/acme/servers", nil, []string{
			"package.json: package @acme/servers is private (not published)",
			"README.md: run blocks for 3 different servers (@acme/server-memory, acme-server-git, @acme/server-time): link the folder of the one you want"}},
		{"https://github.com/acme/servers/tree/main/src/gone", nil, []string{"src/gone: no such folder at this ref", "run blocks for 3 different servers"}},
		{"https://github.com/acme/secret-mcp", ErrNotFound, []string{
			"Deterministic pass: acme/secret-mcp: not found or private (a private repository needs a GITHUB_TOKEN that can read it)",
			"Agent pass: not run: it reads through the same API"}},
		{"https://github.com/acme/busy-mcp", ErrRateLimited, []string{
			"GitHub API rate limit reached (it resets at 15:04 UTC): set GITHUB_TOKEN (environment or vault secret) for a higher limit, or wait",
			"Agent pass: not run"}},
		{"https://github.com/acme/no-such-repo", ErrNotFound, []string{"acme/no-such-repo: not found or private"}},
		{"https://github.com/acme/secret-mcp/tree/main/src", ErrNotFound, []string{
			"src: no such folder at this ref; acme/secret-mcp: not found or private (a private repository needs a GITHUB_TOKEN that can read it)"}},
	}
	for _, tt := range tests {
		t.Run(tt.link, func(t *testing.T) {
			_, gh := fakeGitHub(t)
			res, err := (&Resolver{GitHub: gh}).Find(context.Background(), ref(t, tt.link))
			var f *Failure
			if !errors.As(err, &f) || len(res.Entries) != 0 {
				t.Fatalf("got %+v, %v; want a *Failure", res, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err is not %v: %v", tt.is, err)
			}
			namesBothPasses(t, err.Error())
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err lacks %q:\n%s", w, err)
				}
			}
		})
	}
}

func TestFind_TokenAndRef(t *testing.T) {
	api, gh := fakeGitHub(t)
	gh.Token = "ghp_test"
	if _, err := (&Resolver{GitHub: gh}).Find(context.Background(), ref(t, "https://github.com/acme/notes-mcp/tree/v0.3.1")); err != nil {
		t.Fatal(err)
	}
	reqs := api.Requests()
	if len(reqs) != 2 { // the listing, then package.json
		t.Fatalf("%d requests: %+v", len(reqs), reqs)
	}
	for _, r := range reqs {
		if r.Authorization != "Bearer ghp_test" || r.Ref != "v0.3.1" || r.Repo != "acme/notes-mcp" {
			t.Errorf("request %+v", r)
		}
	}
}
