package bridge

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"tai/internal/egress"
	"tai/internal/mcp/config"
	"tai/internal/sandbox"
	"tai/internal/vault"
)

// A stdio server runs confined, as a command does (docs/reliability.md,
// "The sandbox"), but with its network on, since servers need it: it
// reads everything but the protected paths and writes the workspace, the
// temporary directory and the package caches (npx, uvx). Its entry may
// narrow that ("sandbox": {"network": false}, or {"hosts": [...]}: a
// network of its own whose only way out is tai's egress proxy, to those
// hosts) or widen it ("sandbox": {"write": ["~/notes"]}); tai mcp set
// SERVER sandbox=off runs it unconfined.

// Server sandbox settings: sandbox is files (the default: files
// confined, network on), strict (network off too) or off; sandbox_write
// lists further writable directories, one a line, from the entry.
const (
	SettingSandbox      = "sandbox"
	SettingSandboxWrite = "sandbox_write"
	SettingSandboxHosts = "sandbox_hosts" // the only hosts it reaches, one a line
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
	// DeniedHost, when set, is the administrator's refusal of hosts: a
	// server limited to hosts never reaches one, listed or not.
	DeniedHost func(host string) bool
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
	if len(e.Sandbox.Hosts) > 0 {
		out[SettingSandboxHosts] = strings.Join(e.Sandbox.Hosts, "\n")
	}
	return out
}

// confineServer is the Confine of server's stdio transport, nil when it
// runs unconfined.
func (b *Bridge) confineServer(server string, e config.Entry) func(*exec.Cmd) (func(), error) {
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
	for _, w := range splitLines(extra) {
		if rest, ok := strings.CutPrefix(w, "~/"); ok && sb.Home != "" {
			w = filepath.Join(sb.Home, rest)
		}
		p.Write = append(p.Write, w)
	}
	hosts := splitLines(set[SettingSandboxHosts])
	return func(cmd *exec.Cmd) (func(), error) {
		q := p
		var px *egress.Proxy
		if len(hosts) > 0 && p.Network {
			if !sandbox.CanProxy() {
				return nil, fmt.Errorf("confining it to %s: tai cannot give it a network of its own here (no user namespaces); tai mcp set %s sandbox_hosts= gives it the whole network", strings.Join(hosts, ", "), server)
			}
			var err error
			if px, err = egress.Start(b.hostsReach(server, hosts, sb.DeniedHost), egress.Options{}); err != nil {
				return nil, err
			}
			q.Network, q.Proxy = false, px.Helper()
		}
		if err := sandbox.Wrap(cmd, q); err != nil {
			if px != nil {
				px.Close()
			}
			return nil, fmt.Errorf("confining it: %w; tai mcp set %s sandbox=off runs it unconfined", err, server)
		}
		if px == nil {
			return nil, nil
		}
		return px.Close, nil
	}
}

// hostsReach lets a server limited to hosts reach those only (a host
// without a port: any port), each approved by name, local addresses
// included; the administrator's denied hosts never. A refusal is an
// audit row (egress) and a line in the server's log.
func (b *Bridge) hostsReach(server string, hosts []string, denied func(string) bool) egress.Reach {
	return func(ctx context.Context, hostport string) (bool, error) {
		name, port, _ := net.SplitHostPort(hostport)
		listed := slices.ContainsFunc(hosts, func(h string) bool {
			if hn, hp, err := net.SplitHostPort(h); err == nil {
				return strings.EqualFold(hn, name) && hp == port
			}
			return strings.EqualFold(strings.Trim(h, "[]"), name)
		})
		var err error
		switch {
		case denied != nil && denied(name):
			err = fmt.Errorf("%s is denied by the administrator's policy", hostport)
		case !listed:
			err = fmt.Errorf("%s is not among the hosts MCP server %s may reach (%s); tai mcp set %s sandbox_hosts=… changes them", hostport, server, strings.Join(hosts, ", "), server)
		}
		if err != nil {
			_ = b.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: b.Profile, Kind: vault.KindEgress,
				Subject: hostport + " for MCP server " + server, Outcome: vault.OutcomeDenied})
		}
		return true, err
	}
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
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
	if e.Sandbox != nil && len(e.Sandbox.Hosts) > 0 {
		return line + "; network only to " + strings.Join(e.Sandbox.Hosts, ", ") + " through tai's proxy (the entry narrows it)"
	}
	return line + "; network on"
}
