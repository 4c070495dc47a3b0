package interop

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/mcp/resolve/githubtest"
)

// TestResolve_GitHubLinkToARealNpmServer follows a GitHub link the whole
// way to a real server: the fake GitHub API serves a repository holding only
// the package.json of @modelcontextprotocol/server-memory, the resolver
// turns it into npx -y @modelcontextprotocol/server-memory, and tai starts
// that with the machine's own npx for the live handshake before storing
// anything. npx finds the package in interop's node_modules, so nothing is
// fetched (the test runs in a loopback-only namespace).
func TestResolve_GitHubLinkToARealNpmServer(t *testing.T) {
	requireLoopbackNamespace(t)
	nodeServer(t, "server-memory") // installed, and node on PATH
	if _, err := exec.LookPath("npx"); err != nil {
		t.Fatal("npx is not on PATH: install Node.js 20 or later")
	}
	repos := t.TempDir()
	pkg := map[string]any{
		"name": "@modelcontextprotocol/server-memory",
		"bin":  map[string]string{"mcp-server-memory": "dist/index.js"},
	}
	b, _ := json.Marshal(pkg)
	dir := filepath.Join(repos, "modelcontextprotocol", "memory-server")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	api := &githubtest.API{Files: os.DirFS(repos)}
	srv := httptest.NewServer(api)
	defer srv.Close()

	home := t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := exec.Command(taiBinary(t), args...)
		cmd.Dir = interopDir() // npx resolves the package from here
		cmd.Env = append(os.Environ(), "TAI_HOME="+home, "HOME="+t.TempDir(), "TAI_GITHUB_API_URL="+srv.URL,
			"GITHUB_TOKEN=", "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "TAI_MODEL=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("mcp", "add", "https://github.com/modelcontextprotocol/memory-server/tree/main", "--yes")
	if err != nil {
		t.Fatalf("tai mcp add: %v\n%s", err, out)
	}
	for _, want := range []string{
		"auto-approved: MCP server memory (register): run npx -y @modelcontextprotocol/server-memory",
		"registered MCP server memory with 9 tools",
		"found in package.json of github.com/modelcontextprotocol/memory-server",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tai mcp add printed no %q:\n%s", want, out)
		}
	}
	out, err = run("mcp", "list", "--json")
	if err != nil {
		t.Fatalf("tai mcp list: %v\n%s", err, out)
	}
	var servers []struct {
		Name, Source, Target string
		Tools                int
	}
	if err := json.Unmarshal([]byte(out), &servers); err != nil {
		t.Fatalf("tai mcp list --json: %v\n%s", err, out)
	}
	if len(servers) != 1 || servers[0].Source != "github:modelcontextprotocol/memory-server" || servers[0].Target != "npx -y @modelcontextprotocol/server-memory" || servers[0].Tools != 9 {
		t.Fatalf("stored %+v, want npx -y @modelcontextprotocol/server-memory from github:modelcontextprotocol/memory-server with its 9 tools", servers)
	}
	name := servers[0].Name
	if out, err := run("mcp", "enable", name); err != nil {
		t.Fatalf("tai mcp enable: %v\n%s", err, out)
	}
	// read-only: with no MEMORY_FILE_PATH the server keeps its graph beside
	// its code, so a write would outlive the test
	out, err = run("mcp", "call", name, "read_graph", `{}`, "--yes")
	if err != nil || !strings.Contains(out, `"entities"`) {
		t.Fatalf("tai mcp call %s read_graph: %v\n%s", name, err, out)
	}
	if reqs := api.Requests(); len(reqs) == 0 {
		t.Error("the fake GitHub API saw no request")
	}
}
