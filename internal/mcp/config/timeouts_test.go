package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// secondsTimeout and msTimeout are the notes of a pasted timeout read as
// seconds (Cline, Crush) and as milliseconds (Gemini CLI).
func secondsTimeout(n int) string {
	return fmt.Sprintf("timeout %d read as %ds (seconds, as Cline and Crush write it): each request may wait up to %ds for an answer or progress, in place of MCP_CALL_TIMEOUT", n, n, n)
}

func msTimeout(ms int) string {
	return fmt.Sprintf("timeout %d read as %ds (milliseconds, as Gemini CLI writes it): each request may wait up to %ds for an answer or progress, in place of MCP_CALL_TIMEOUT", ms, ms/1000, ms/1000)
}

// TestNormalize_TimeoutsKept: each host's timeout keys become the
// server's own limits, read in the unit the host writes them in.
func TestNormalize_TimeoutsKept(t *testing.T) {
	tests := []struct {
		name, in      string
		call, startup time.Duration
		note          string
	}{
		{"gemini ms", `{"mcpServers": {"s": {"command": "x", "timeout": 600000}}}`, 600 * time.Second, 0,
			"timeout 600000 read as 600s (milliseconds, as Gemini CLI writes it): each request may wait up to 600s for an answer or progress, in place of MCP_CALL_TIMEOUT"},
		{"cline seconds", `{"mcpServers": {"s": {"command": "x", "timeout": 60}}}`, time.Minute, 0, secondsTimeout(60)},
		{"just below ms", `{"mcpServers": {"s": {"command": "x", "timeout": 999}}}`, 999 * time.Second, 0, secondsTimeout(999)},
		{"fraction", `{"mcpServers": {"s": {"command": "x", "timeout": 1.5}}}`, 1500 * time.Millisecond, 0, ""},
		{"codex tool", "[mcp_servers.s]\ncommand = \"x\"\ntool_timeout_sec = 1\n", time.Second, 0,
			"tool_timeout_sec: each request may wait up to 1s for an answer or progress, in place of MCP_CALL_TIMEOUT"},
		{"codex startup ms", "[mcp_servers.s]\ncommand = \"x\"\nstartup_timeout_ms = 45000\n", 0, 45 * time.Second,
			"startup_timeout_ms: each start may take up to 45s, in place of MCP_CONNECT_TIMEOUT (the first start at registration keeps tai's own allowance when longer)"},
		{"codex both agree", "[mcp_servers.s]\ncommand = \"x\"\nstartup_timeout_sec = 600\nstartup_timeout_ms = 600000\ntool_timeout_sec = 3600\n", time.Hour, 600 * time.Second, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			e := got[0]
			if e.CallTimeout != tt.call || e.StartupTimeout != tt.startup {
				t.Errorf("call %v, startup %v; want %v, %v", e.CallTimeout, e.StartupTimeout, tt.call, tt.startup)
			}
			if tt.note != "" && (len(e.Notes) != 1 || e.Notes[0] != tt.note) {
				t.Errorf("notes %q; want %q", e.Notes, tt.note)
			}
		})
	}
}

// TestNormalize_TimeoutsOutOfRange: a value outside the bounds is refused
// in one line naming the key and the range; nothing is read.
func TestNormalize_TimeoutsOutOfRange(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[mcp_servers.s]\ncommand = \"x\"\ntool_timeout_sec = 0\n",
			"mcp_servers.s.tool_timeout_sec: 0 seconds is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL)"},
		{"[mcp_servers.s]\ncommand = \"x\"\ntool_timeout_sec = 3601\n",
			"mcp_servers.s.tool_timeout_sec: 3601 seconds is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL)"},
		{`{"mcpServers": {"s": {"command": "x", "timeout": 7200000}}}`,
			"mcpServers.s.timeout: 7200000 milliseconds is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL)"},
		{`{"mcpServers": {"s": {"command": "x", "timeout": 0.5}}}`,
			"mcpServers.s.timeout: 0.5 seconds is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL)"},
		{"[mcp_servers.s]\ncommand = \"x\"\nstartup_timeout_sec = 601\n",
			"mcp_servers.s.startup_timeout_sec: 601 seconds is out of range: give 1s to 600s (MCP_MAX_STARTUP)"},
		{"[mcp_servers.s]\ncommand = \"x\"\nstartup_timeout_ms = 500\n",
			"mcp_servers.s.startup_timeout_ms: 500 milliseconds is out of range: give 1s to 600s (MCP_MAX_STARTUP)"},
		{"[mcp_servers.s]\ncommand = \"x\"\nstartup_timeout_sec = -1\n",
			"mcp_servers.s.startup_timeout_sec: -1 seconds is out of range: give 1s to 600s (MCP_MAX_STARTUP)"},
		{`{"mcpServers": {"s": {"command": "x", "timeout": 30, "tool_timeout_sec": 60}}}`,
			"mcpServers.s: timeout and tool_timeout_sec disagree: keep one"},
		{`{"mcpServers": {"s": {"command": "x", "timeout": "30"}}}`,
			"mcpServers.s.timeout: want a number, got"},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: entries %v, error %v; want one line starting %q", tt.in, got, err, tt.want)
		}
	}
}
