package bridge

import (
	"strings"
	"testing"

	"tai/internal/mcp/config"
)

// A stdio server's consent says how it runs confined, with what its entry
// widens or narrows, and says it plainly when it is not.
func TestSandboxLine(t *testing.T) {
	no := false
	e := config.Entry{Transport: config.Stdio, Sandbox: &config.SandboxSpec{Network: &no, Write: []string{"~/notes"}}}
	sb := &ServerSandbox{Home: "/home/u"}
	if got := sandboxLine(e, sb); !strings.Contains(got, "and ~/notes (the entry widens it); network off (the entry narrows it)") {
		t.Errorf("widened and narrowed: %s", got)
	}
	hosts := config.Entry{Transport: config.Stdio, Sandbox: &config.SandboxSpec{Hosts: []string{"api.github.com", "localhost:8080"}}}
	if got := sandboxLine(hosts, sb); !strings.HasSuffix(got, "; network only to api.github.com, localhost:8080 through tai's proxy (the entry narrows it)") {
		t.Errorf("hosts: %s", got)
	}
	if got := sandboxLine(config.Entry{Transport: config.Stdio}, sb); !strings.HasSuffix(got, "package caches; network on") {
		t.Errorf("the default: %s", got)
	}
	if got := sandboxLine(e, nil); !strings.Contains(got, "reaches everything you can") {
		t.Errorf("off: %s", got)
	}
	if got := sandboxSettings(e); got[SettingSandbox] != "strict" || got[SettingSandboxWrite] != "~/notes" {
		t.Errorf("settings: %v", got)
	}
}
