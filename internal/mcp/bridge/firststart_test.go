package bridge

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/tools"
)

// slowNpx writes an npx that takes installFor to "install" the server
// before running it (the fake server), as npx -y does on an empty cache.
func slowNpx(t *testing.T, installFor time.Duration) config.Entry {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nsleep " + strings.TrimSuffix(installFor.String(), "s") + "\nexec \"$FAKE_SERVER\"\n"
	if err := os.WriteFile(filepath.Join(dir, "npx"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := mcptest.Env("ping")
	env["FAKE_SERVER"] = os.Args[0]
	return config.Entry{Name: "slow", Transport: config.Stdio, Command: filepath.Join(dir, "npx"),
		Args: []string{"-y", "@acme/slow-server"}, Env: env, Source: config.SourceJSON}
}

// syncBuffer is a bytes.Buffer the progress goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A package runner's first start may take longer than the handshake cap:
// at registration it gets MCP_INSTALL_TIMEOUT, and says meanwhile that it
// is installing. Later starts keep the handshake cap.
func TestAdd_PackageRunnerFirstStartGetsTheInstallAllowance(t *testing.T) {
	f := newFixture(t)
	var out syncBuffer
	f.b.ConnectTimeout, f.b.InstallTimeout = 200*time.Millisecond, 20*time.Second
	f.b.Progress, f.b.progressEvery = &out, 100*time.Millisecond
	a := f.add(t, slowNpx(t, 1500*time.Millisecond), false)
	if len(a.Tools) != 1 {
		t.Fatalf("tools %v", a.Tools)
	}
	if !strings.Contains(out.String(), "tai: still starting MCP server slow (npx may be installing it first): 1s") {
		t.Errorf("no progress shown:\n%s", out.String())
	}
	// A server started without a runner keeps MCP_CONNECT_TIMEOUT.
	e := slowNpx(t, time.Second)
	e.Name, e.Command = "plain", "/bin/sh"
	e.Args = []string{"-c", "sleep 1; exec \"$FAKE_SERVER\""}
	_, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, yes(false), nil)
	if err == nil || !strings.Contains(err.Error(), "MCP_CONNECT_TIMEOUT") {
		t.Errorf("a plain slow start: %v", err)
	}
}

// When the allowance runs out before anything answered, the error says the
// time most likely went on the download and how to give it more; a
// pasted startup_timeout_sec raises the allowance.
func TestAdd_PackageRunnerOutOfTimeSaysItWasInstalling(t *testing.T) {
	f := newFixture(t)
	f.b.ConnectTimeout, f.b.InstallTimeout = 100*time.Millisecond, 300*time.Millisecond
	e := slowNpx(t, 1500*time.Millisecond)
	_, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, yes(false), nil)
	if err == nil {
		t.Fatal("stored a server that never answered")
	}
	wantContains(t, "error", err.Error(), "MCP_INSTALL_TIMEOUT", "npx was most likely still downloading and installing the server", "startup_timeout_sec")
	e.StartupTimeout = 20 * time.Second
	var shown []tools.Consent
	if _, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, asking(true, &shown), nil); err != nil {
		t.Fatalf("with startup_timeout_sec: %v", err)
	}
}

// On a terminal the wait is a spinner redrawn in place, erased at the end.
func TestProgress_TerminalSpinner(t *testing.T) {
	var out bytes.Buffer
	start := time.Now()
	p := &progress{w: &out, what: "starting MCP server x", terminal: true, start: start}
	p.tick(start.Add(1200 * time.Millisecond))
	p.tick(start.Add(2500 * time.Millisecond))
	p.end()
	want := "\r\x1b[K⠋ starting MCP server x: 1s\r\x1b[K⠙ starting MCP server x: 2s\r\x1b[K"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
}

func TestPackageRunner(t *testing.T) {
	for cmd, want := range map[string]string{
		"npx -y @modelcontextprotocol/server-memory": "npx",
		"uvx mcp-server-time":                        "uvx",
		"bunx foo":                                   "bunx",
		"pnpm dlx foo":                               "pnpm dlx",
		"npm exec foo":                               "npm exec",
		"cmd /c npx -y foo":                          "npx",
		"/usr/local/bin/npx foo":                     "npx",
		"uv tool run foo":                            "uv tool run",
		"node server.js":                             "",
		"pnpm install":                               "",
		"docker run -i img":                          "",
	} {
		argv := strings.Fields(cmd)
		if got := PackageRunner(config.Entry{Transport: config.Stdio, Command: argv[0], Args: argv[1:]}); got != want {
			t.Errorf("%s: got %q, want %q", cmd, got, want)
		}
	}
}
