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
	tm.waitFor("the consent for third", func(s, cursor string) bool { return cursor == "allow? (y/n) Esc denies" })
	if s := tm.screen(); !strings.Contains(s, "MCP server third (register)") || strings.Contains(s, "MCP server first (register)") {
		t.Fatalf("consent shown for the wrong server:\n%s", s)
	}
	tm.send("y")
	tm.waitFor("the enable question", func(s, cursor string) bool { return cursor == "[Y/n]" })
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

// At a terminal, a package runner's first start shows a spinner with the
// elapsed time while it may be installing, and erases it when done.
func TestMCPAdd_FirstStartSpinner(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// npx that "installs" for two seconds, then runs the fake server.
	if err := os.WriteFile(filepath.Join(bin, "npx"), []byte("#!/bin/sh\nsleep 2\nexec \"$FAKE_SERVER\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	paste := `{"mcpServers":{"slow":{"command":"npx","args":["-y","@acme/slow"],"env":{"FAKE_SERVER":"` + os.Args[0] +
		`","TAI_FAKE_MCP":"1","TAI_FAKE_TOOLS":"[{\"name\":\"echo\"}]"}}}}`
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startTerm(t, srv, dir, []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, "mcp", "add", "--enable", paste)
	tm.waitFor("the registration consent", func(s, cursor string) bool { return cursor == "allow? (y/n) Esc denies" })
	tm.send("y")
	tm.waitText(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] starting MCP server slow \(npx may be installing it first\): [01]s`)
	tm.waitText(`registered MCP server slow with 1 tools`)
	if s := tm.screen(); strings.Contains(s, "starting MCP server slow") {
		t.Errorf("the spinner was left on the screen:\n%s", s)
	}
}
