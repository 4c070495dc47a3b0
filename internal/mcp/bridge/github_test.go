package bridge

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/resolve/githubtest"
	"tai/internal/tools"
	"tai/internal/vault"
)

// gitHubRepos serves two repositories through a fake GitHub API and points
// the fixture's bridge at it: acme/fake-mcp, whose .mcp.json runs the fake
// server, and acme/broken-mcp, whose server exits at once.
func gitHubRepos(t *testing.T, f *fixture) *githubtest.API {
	t.Helper()
	config := func(name, command string, args []string, env map[string]string) []byte {
		server := map[string]any{"command": command}
		if args != nil {
			server["args"] = args
		}
		if env != nil {
			server["env"] = env
		}
		b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{name: server}})
		return b
	}
	api := &githubtest.API{Files: fstest.MapFS{
		"acme/fake-mcp/.mcp.json":     {Data: config("fake", os.Args[0], nil, mcptest.Env("echo"))},
		"acme/fake-mcp/README.md":     {Data: []byte("# fake\n")},
		"acme/broken-mcp/.mcp.json":   {Data: config("broken", "/bin/sh", []string{"-c", "echo boom >&2; exit 3"}, nil)},
		"acme/broken-mcp/src/main.go": {Data: []byte("package main\n")},
	}}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	f.env[EnvGitHubAPI] = srv.URL
	return api
}

// asking records each consent screen and answers with answer.
func asking(answer bool, shown *[]tools.Consent) RegisterConsent {
	return func(_ context.Context, c tools.Consent, _ bool) (bool, bool, error) {
		*shown = append(*shown, c)
		return answer, false, nil
	}
}

func TestAdd_GitHubLinkResolvesAsksAndVerifies(t *testing.T) {
	f := newFixture(t)
	gitHubRepos(t, f)
	var shown []tools.Consent
	added, err := f.b.Add(context.Background(), AddRequest{Source: "https://github.com/acme/fake-mcp"}, asking(true, &shown), f.b.GitHub(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 1 || added[0].Name != "fake" || len(added[0].Tools) != 1 || added[0].Tools[0].Name != "echo" {
		t.Fatalf("added %+v", added)
	}
	if len(shown) != 1 || !strings.Contains(shown[0].Detail, "source: github:acme/fake-mcp") ||
		!strings.Contains(shown[0].Detail, "note: found in .mcp.json of github.com/acme/fake-mcp") {
		t.Fatalf("consent %+v", shown)
	}
	srv, err := f.store.MCPServer(context.Background(), "fake")
	if err != nil || srv.Source != "github:acme/fake-mcp" {
		t.Fatalf("stored %+v, %v", srv, err)
	}
}

func TestAdd_GitHubEntryThatFailsItsHandshakeIsNotStored(t *testing.T) {
	f := newFixture(t)
	gitHubRepos(t, f)
	var shown []tools.Consent
	_, err := f.b.Add(context.Background(), AddRequest{Source: "github.com/acme/broken-mcp"}, asking(true, &shown), f.b.GitHub(nil))
	if err == nil || !strings.Contains(err.Error(), "did not start, so it was not stored") || len(shown) != 1 {
		t.Fatalf("err = %v, consent shown %d times", err, len(shown))
	}
	if names, _ := f.store.MCPServerNames(context.Background()); len(names) != 0 {
		t.Fatalf("stored %v", names)
	}
}

func TestAdd_GitHubDeclinedAndRenamed(t *testing.T) {
	f := newFixture(t)
	api := gitHubRepos(t, f)
	ctx := context.Background()
	var shown []tools.Consent
	if _, err := f.b.Add(ctx, AddRequest{Source: "https://github.com/acme/fake-mcp"}, asking(false, &shown), f.b.GitHub(nil)); err == nil {
		t.Fatal("a declined server was registered")
	}
	if names, _ := f.store.MCPServerNames(ctx); len(names) != 0 {
		t.Fatalf("stored %v", names)
	}
	if err := f.store.SetSecret(ctx, vault.DefaultProfile, EnvGitHubToken, "ghp_from_vault", nil); err != nil {
		t.Fatal(err)
	}
	added, err := f.b.Add(ctx, AddRequest{Source: "https://github.com/acme/fake-mcp", Name: "mine"}, asking(true, &shown), f.b.GitHub(nil))
	if err != nil || added[0].Name != "mine" {
		t.Fatalf("added %+v, %v", added, err)
	}
	reqs := api.Requests()
	if last := reqs[len(reqs)-1]; last.Authorization != "Bearer ghp_from_vault" {
		t.Errorf("the vault's GITHUB_TOKEN was not sent: %+v", last)
	}
}

// TestMCPAddTool_ResolvedEntriesAskAgain: approving mcp_add approved the
// screen that showed the link, not the server found behind it, so that
// server gets its own consent through Confirm; a pasted config does not.
func TestMCPAddTool_ResolvedEntriesAskAgain(t *testing.T) {
	f := newFixture(t)
	gitHubRepos(t, f)
	var add *tools.Tool
	for _, tl := range AgentTools() {
		if tl.Name == AddName {
			add = tl
		}
	}
	env := &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}}
	Attach(env, f.b)
	run := func(source string) tools.Result {
		args, _ := json.Marshal(map[string]string{"source": source})
		if c := add.ConsentFor(tools.Call{Args: args, Env: env}); source[0] != '{' && !strings.Contains(c.Detail, "each server found is shown for approval") {
			t.Errorf("mcp_add's own consent: %+v", c)
		}
		res, err := tools.Invoke(context.Background(), add, tools.Call{Args: args, Env: env}, tools.Via{})
		if err != nil {
			t.Fatal(err)
		}
		return res.Result
	}
	if res := run("https://github.com/acme/fake-mcp"); !res.IsError || !strings.Contains(res.Text, "nobody can be asked") {
		t.Fatalf("without Confirm: %+v", res)
	}
	var asked []string
	answer := false
	f.b.Confirm = func(_ context.Context, c tools.Consent) (bool, error) {
		asked = append(asked, c.Title)
		return answer, nil
	}
	if res := run("https://github.com/acme/fake-mcp"); !res.IsError || !strings.Contains(res.Text, "declined") || len(asked) != 1 {
		t.Fatalf("declined: %+v, asked %q", res, asked)
	}
	answer = true
	if res := run("https://github.com/acme/fake-mcp"); res.IsError || !strings.Contains(res.Text, "registered MCP server fake") {
		t.Fatalf("approved: %+v", res)
	}
	if len(asked) != 2 || !strings.Contains(asked[1], "MCP server fake (register): run ") {
		t.Fatalf("asked %q", asked)
	}
	paste, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"other": map[string]any{"command": os.Args[0], "env": mcptest.Env("echo")}}})
	if res := run(string(paste)); res.IsError || len(asked) != 2 {
		t.Fatalf("a pasted config asked again: %+v, asked %q", res, asked)
	}
}
