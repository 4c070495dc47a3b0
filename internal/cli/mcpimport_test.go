package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

// At a terminal, tai mcp import lists what each host's file holds and asks
// which servers to offer; only those picked get a consent screen.
func TestMCPImport_PersonPicksWhatToOffer(t *testing.T) {
	dir := t.TempDir()
	server := func() map[string]any {
		return map[string]any{"command": os.Args[0], "env": map[string]string{"TAI_FAKE_MCP": "1", "TAI_FAKE_TOOLS": `[{"name":"echo","description":"Echo"}]`}}
	}
	writeJSON(t, filepath.Join(dir, ".mcp.json"), map[string]any{"mcpServers": map[string]any{"first": server(), "second": server()}})
	writeJSON(t, filepath.Join(dir, ".claude.json"), map[string]any{"numStartups": 1,
		"projects": map[string]any{dir: map[string]any{"mcpServers": map[string]any{"third": server()}}}})
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startTerm(t, srv, dir, nil, "mcp", "import")
	tm.waitText(`Which servers should tai offer\?`)
	s := tm.screen()
	for _, want := range []string{".mcp.json (Claude Code (project scope)): 2 server(s) to offer: first, second",
		".claude.json (Claude Code (user and local scope)): 1 server(s) to offer: third"} {
		if !strings.Contains(s, want) {
			t.Errorf("the listing lacks %q", want)
		}
	}
	tm.send("third\r")
	tm.waitFor("the consent for third", func(s, cursor string) bool { return cursor == "allow? (y/n)" })
	if s := tm.screen(); !strings.Contains(s, "MCP server third (register)") || strings.Contains(s, "MCP server first (register)") {
		t.Fatalf("consent shown for the wrong server:\n%s", s)
	}
	tm.send("y\r")
	tm.waitText(`Enable it for profile default now\?`)
	tm.send("n\r")
	tm.waitText(`import: 3 server\(s\) found, 1 offered, 1 registered`)
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
