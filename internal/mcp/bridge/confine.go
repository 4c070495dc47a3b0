package bridge

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/sandbox"
)

// A stdio server runs confined, as a command does (docs/reliability.md,
// "The sandbox"), but with its network on, since servers need it: it
// reads everything but the protected paths and writes the workspace, the
// temporary directory and the package caches (npx, uvx). Its entry may
// narrow that ("sandbox": {"network": false}) or widen it ("sandbox":
// {"write": ["~/notes"]}); tai mcp set SERVER sandbox=off runs it
// unconfined.

// Server sandbox settings: sandbox is files (the default: files
// confined, network on), strict (network off too) or off; sandbox_write
// lists further writable directories, one a line, from the entry.
const (
	SettingSandbox      = "sandbox"
	SettingSandboxWrite = "sandbox_write"
)

// ServerSandbox is how the bridge confines the stdio servers it starts:
// the workspace directories, the person's home and tai's. Nil on the
// Bridge runs them unconfined (--sandbox off).
type ServerSandbox struct {
	Dirs          []string
	Home, TaiHome string
	// Unavailable says why the kernel cannot confine; servers then run
	// unconfined, which the host says at start.
	Unavailable string
}

// sandboxSettings are the settings a registration stores for e's pasted
// sandbox; nil when it has none.
func sandboxSettings(e config.Entry) map[string]string {
	if e.Sandbox == nil {
		return nil
	}
	out := map[string]string{}
	if n := e.Sandbox.Network; n != nil && !*n {
		out[SettingSandbox] = "strict"
	}
	if len(e.Sandbox.Write) > 0 {
		out[SettingSandboxWrite] = strings.Join(e.Sandbox.Write, "\n")
	}
	return out
}

// confineServer is the Confine of server's stdio transport, nil when it
// runs unconfined.
func (b *Bridge) confineServer(server string, e config.Entry) func(*exec.Cmd) error {
	sb := b.Sandbox
	if sb == nil || sb.Unavailable != "" {
		return nil
	}
	// At registration the entry says it; later the stored settings do
	// (a stored entry carries no sandbox of its own).
	set := sandboxSettings(e)
	if set == nil {
		set, _ = b.Store.MCPSettings(context.Background(), server)
	}
	mode, extra := "files", set[SettingSandboxWrite]
	if v := set[SettingSandbox]; v != "" {
		mode = v
	}
	if mode == "off" {
		return nil
	}
	dirs := append([]string{}, sb.Dirs...)
	if e.Cwd != "" {
		dirs = append(dirs, e.Cwd)
	}
	p := sandbox.Workspace(sandbox.WorkspaceWrite, dirs, sb.Home, sb.TaiHome, os.TempDir())
	p.Network = mode != "strict"
	p.Protected = sandbox.ServerProtected(sb.Home, sb.TaiHome)
	for _, w := range strings.Split(extra, "\n") {
		if w = strings.TrimSpace(w); w == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(w, "~/"); ok && sb.Home != "" {
			w = filepath.Join(sb.Home, rest)
		}
		p.Write = append(p.Write, w)
	}
	return func(cmd *exec.Cmd) error {
		if err := sandbox.Wrap(cmd, p); err != nil {
			return fmt.Errorf("confining it: %w; tai mcp set %s sandbox=off runs it unconfined", err, server)
		}
		return nil
	}
}

// sandboxLine is the consent screen's line on how a stdio server runs.
func sandboxLine(e config.Entry, sb *ServerSandbox) string {
	switch {
	case sb == nil:
		return "sandbox: off (--sandbox off): the server reaches everything you can"
	case sb.Unavailable != "":
		return "sandbox: unavailable here (" + sb.Unavailable + "): the server reaches everything you can"
	}
	line := "sandbox: reads all but your keys and credentials; writes the workspace, the temporary directory and package caches"
	if e.Sandbox != nil && len(e.Sandbox.Write) > 0 {
		line += ", and " + strings.Join(e.Sandbox.Write, ", ") + " (the entry widens it)"
	}
	if e.Sandbox != nil && e.Sandbox.Network != nil && !*e.Sandbox.Network {
		return line + "; network off (the entry narrows it)"
	}
	return line + "; network on"
}
