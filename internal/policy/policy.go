// Package policy reads an administrator's policy for tai: a file only
// root (or an administrator) can write, applied before the person's own
// settings and flags. It can forbid running commands unconfined
// (--sandbox off) and approving in advance (--yolo, --auto), refuse
// hosts to every tool that sends a request, and allow only listed MCP
// servers. A missing file is no policy. See docs/reliability.md,
// "Managed policy".
package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Path is where the policy is read on this system.
func Path() string {
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("ProgramData"); d != "" {
			return d + `\tai\policy.toml`
		}
		return `C:\ProgramData\tai\policy.toml`
	case "darwin":
		return "/Library/Application Support/tai/policy.toml"
	}
	return "/etc/tai/policy.toml"
}

// Policy is what the administrator's file says.
type Policy struct {
	// Path is the file it came from, "" when there is none.
	Path string `toml:"-"`
	// ForbidSandboxOff refuses --sandbox off (and the setting).
	ForbidSandboxOff bool `toml:"forbid_sandbox_off"`
	// ForbidYolo and ForbidAuto refuse those approval modes.
	ForbidYolo bool `toml:"forbid_yolo"`
	ForbidAuto bool `toml:"forbid_auto"`
	// DeniedHosts are hosts no tool sends a request to, a leading "*."
	// matching every subdomain.
	DeniedHosts []string `toml:"denied_hosts"`
	// AllowedServers, when the file sets it, are the only MCP servers
	// tai registers or starts.
	AllowedServers *[]Server `toml:"allowed_servers"`
}

// Server is one allowed MCP server: a command whose arguments begin with
// Args, or a URL beginning with URL. Tools, when set, are the only tools
// of it tai offers, each by name with the digest of the one definition
// allowed (`tai mcp tools SERVER --json` shows each tool's "Digest").
type Server struct {
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	URL     string            `toml:"url"`
	Tools   map[string]string `toml:"tools"`
}

// maxFile bounds the policy file.
const maxFile = 1 << 20

// Load reads the policy at path; a missing file is the zero Policy. A
// file that does not parse, or names a key tai does not know, is an
// error: tai refuses to start rather than run without the policy.
func Load(path string) (Policy, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Policy{}, nil
	}
	if err != nil {
		return Policy{}, fmt.Errorf("the administrator's policy %s cannot be read: %w", path, err)
	}
	if len(b) > maxFile {
		return Policy{}, fmt.Errorf("the administrator's policy %s is over %d bytes", path, maxFile)
	}
	var p Policy
	md, err := toml.Decode(string(b), &p)
	if err != nil {
		return Policy{}, fmt.Errorf("the administrator's policy %s does not parse: %w; ask your administrator to fix it", path, err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		return Policy{}, fmt.Errorf("the administrator's policy %s has a key tai does not know (%s); ask your administrator to fix it", path, un[0])
	}
	if p.AllowedServers != nil {
		for i, s := range *p.AllowedServers {
			if (s.Command == "") == (s.URL == "") {
				return Policy{}, fmt.Errorf("the administrator's policy %s: allowed_servers[%d] needs a command or a url, not both", path, i)
			}
		}
	}
	p.Path = path
	return p, nil
}

// CheckModes refuses an approval mode or sandbox mode the policy forbids;
// from says where the value came from (a flag, the profile).
func (p Policy) CheckModes(approval, sandbox, from string) error {
	switch {
	case approval == "yolo" && p.ForbidYolo, approval == "auto" && p.ForbidAuto:
		return fmt.Errorf("the administrator's policy (%s) forbids approving with %s (%s); run without it", p.Path, approval, from)
	case sandbox == "off" && p.ForbidSandboxOff:
		return fmt.Errorf("the administrator's policy (%s) forbids --sandbox off (%s); run with workspace-write or read-only", p.Path, from)
	}
	return nil
}

// DeniesHost reports whether the policy refuses host (lower case, no port).
func (p Policy) DeniesHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return slices.ContainsFunc(p.DeniedHosts, func(d string) bool {
		d = strings.ToLower(d)
		if rest, ok := strings.CutPrefix(d, "*."); ok {
			return host == rest || strings.HasSuffix(host, "."+rest)
		}
		return host == d
	})
}

// AllowsServer refuses a server the allowlist does not name: a stdio one
// by its command and leading arguments, an HTTP one by its URL's start.
func (p Policy) AllowsServer(command string, args []string, url string) error {
	if p.AllowedServers == nil {
		return nil
	}
	if _, ok := p.entryFor(command, args, url); ok {
		return nil
	}
	what := url
	if what == "" {
		what = strings.TrimSpace(command + " " + strings.Join(args, " "))
	}
	return fmt.Errorf("the administrator's policy (%s) allows only listed MCP servers, and not %s", p.Path, what)
}

// ToolDigests are the tools the policy allows of a server, by name with
// the digest of each one's definition; nil when it does not pin them (no
// allowlist, or the matching entry lists no tools).
func (p Policy) ToolDigests(command string, args []string, url string) map[string]string {
	if s, ok := p.entryFor(command, args, url); ok && s.Tools != nil {
		return s.Tools
	}
	return nil
}

// entryFor is the first allowlist entry that names the server.
func (p Policy) entryFor(command string, args []string, url string) (Server, bool) {
	if p.AllowedServers == nil {
		return Server{}, false
	}
	for _, s := range *p.AllowedServers {
		switch {
		case s.URL != "" && url != "" && strings.HasPrefix(url, s.URL):
			return s, true
		case s.Command != "" && command == s.Command && len(args) >= len(s.Args) && slices.Equal(args[:len(s.Args)], s.Args):
			return s, true
		}
	}
	return Server{}, false
}
