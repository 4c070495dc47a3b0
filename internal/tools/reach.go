package tools

import (
	"cmp"
	"context"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tai/internal/netaddr"
)

// Grant kinds: what a standing "always" covers. The vault stores the kind
// and subject; the approval policy in internal/agent decides what each
// covers (docs/reliability.md, the threat model).
const (
	GrantTool      = "tool"       // a whole tool: a bridged tool, or an explicit grant
	GrantServer    = "server"     // every tool of one MCP server
	GrantCommand   = "command"    // shell lines whose commands start with this program and subcommand
	GrantHost      = "host"       // web requests to this host (host[:port], lower case)
	GrantLocalHost = "local-host" // this host name even when it resolves to a loopback or private address
	GrantDir       = "dir"        // reads under this directory
	GrantEdit      = "edit"       // file changes under this working directory (not its .git)
	GrantSampling  = "sampling"   // one MCP server's sampling requests run on the person's model (the reply is still shown)
	GrantNetwork   = "network"    // "HOST for PREFIX": sandboxed shell lines starting PREFIX reach HOST through tai's proxy
)

// NetworkFor joins the host and the command prefix of a GrantNetwork
// subject: "registry.npmjs.org for npm install".
const NetworkFor = " for "

// GrantKinds lists every kind, in the order `tai permissions` shows them.
var GrantKinds = []string{GrantTool, GrantServer, GrantCommand, GrantNetwork, GrantHost, GrantLocalHost, GrantDir, GrantEdit, GrantSampling}

// Grant is one standing approval's scope.
type Grant struct {
	Kind    string
	Subject string
}

// String is the grant as a person reads it on a consent screen.
func (g Grant) String() string {
	switch g.Kind {
	case GrantCommand:
		return "shell commands starting `" + g.Subject + "`"
	case GrantNetwork:
		host, prefix, _ := strings.Cut(g.Subject, NetworkFor)
		return "sandboxed commands starting `" + prefix + "` reaching " + host + " through tai's proxy"
	case GrantHost:
		return "requests to " + g.Subject
	case GrantLocalHost:
		return "requests to local address " + g.Subject
	case GrantDir:
		return "reads under " + g.Subject
	case GrantEdit:
		return "file changes under " + g.Subject + " (except .git)"
	case GrantServer:
		return "every tool of MCP server " + g.Subject
	case GrantSampling:
		return "sampling requests of MCP server " + g.Subject + " (its messages go to your model)"
	}
	return "tool " + g.Subject
}

// Reach is what one call reads or sends outside tai's own state.
type Reach struct {
	// Reads are the absolute paths the call reads: files, or directories
	// it lists or walks.
	Reads []string
	// URLs are the absolute http(s) URLs the call sends requests to.
	URLs []string
	// Sends names a peer the call's arguments go to that is not a URL (an
	// MCP server); like URLs, it makes the arguments subject to the check
	// for known secrets.
	Sends string
	// Unknown, when set, says why the call may read what cannot be named
	// before it runs (a path expanded by the shell); such a call asks.
	Unknown string
}

// ReachOf is t.Reach(call), or nothing for a tool that declares none.
func (t *Tool) ReachOf(call Call) Reach {
	if t.Reach == nil {
		return Reach{}
	}
	return t.Reach(call)
}

// InWorkspace reports whether abs lies inside the working directory or one
// of the roots the person added. Symbolic links are resolved first, so a
// link inside the workspace to a file outside it is outside.
func (e *Env) InWorkspace(abs string) bool {
	if e == nil {
		return false
	}
	real := Resolve(abs)
	for _, root := range append([]string{e.Dir}, e.Roots...) {
		if root != "" && Within(real, Resolve(root)) {
			return true
		}
	}
	return false
}

// Resolve is abs with every symbolic link of its longest existing prefix
// resolved, so that a path not yet created still resolves through its
// parent directories.
func Resolve(abs string) string {
	abs = filepath.Clean(abs)
	rest := ""
	for p := abs; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Within reports whether path is dir or lies beneath it (both clean and
// absolute).
func Within(path, dir string) bool {
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}

// Sensitive says why reading abs always asks, or "" when it need not:
// tai's own home, SSH and GPG keys, cloud and tool credentials, other
// processes' environment and memory. taiHome is tai's home directory ("" if
// unknown). Links are resolved first.
func Sensitive(abs, taiHome string) string {
	real := Resolve(abs)
	for _, p := range []string{abs, real} {
		if why := sensitive(p, taiHome); why != "" {
			return why
		}
	}
	return ""
}

func sensitive(p, taiHome string) string {
	if taiHome != "" && (Within(p, Resolve(taiHome)) || Within(p, filepath.Clean(taiHome))) {
		return "tai's own home (the vault, its keys and records)"
	}
	if strings.HasPrefix(p, "/proc/") {
		rest := strings.TrimPrefix(p, "/proc/")
		if i := strings.IndexByte(rest, '/'); i > 0 {
			switch leaf := rest[i+1:]; {
			case leaf == "environ" || leaf == "mem" || leaf == "cmdline" || leaf == "auxv" ||
				strings.HasPrefix(leaf, "task/") || strings.HasPrefix(leaf, "fd") || strings.HasPrefix(leaf, "map_files"):
				return "another process's environment or memory"
			}
		}
		if rest == "self" || rest == "thread-self" || rest == "kcore" {
			return "another process's environment or memory"
		}
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	for _, c := range credentialPaths {
		if Within(p, filepath.Join(home, filepath.FromSlash(c.rel))) {
			return c.why
		}
	}
	for _, c := range []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/root/.ssh"} {
		if Within(p, c) {
			return "system credentials"
		}
	}
	return ""
}

// credentialPaths are the places under a home directory where tools keep
// keys and tokens.
var credentialPaths = []struct{ rel, why string }{
	{".ssh", "SSH keys"},
	{".gnupg", "GPG keys"},
	{".aws", "cloud credentials"},
	{".azure", "cloud credentials"},
	{".config/gcloud", "cloud credentials"},
	{".oci", "cloud credentials"},
	{".kube", "cluster credentials"},
	{".docker/config.json", "registry credentials"},
	{".netrc", "login credentials"},
	{".git-credentials", "login credentials"},
	{".config/gh", "GitHub credentials"},
	{".config/hub", "GitHub credentials"},
	{".npmrc", "package registry credentials"},
	{".pypirc", "package registry credentials"},
	{".cargo/credentials", "package registry credentials"},
	{".cargo/credentials.toml", "package registry credentials"},
	{".password-store", "passwords"},
	{".local/share/keyrings", "passwords"},
	{".mozilla", "browser data"},
	{".config/google-chrome", "browser data"},
	{".config/chromium", "browser data"},
	{".vault-token", "login credentials"},
	{".terraform.d/credentials.tfrc.json", "cloud credentials"},
	{".claude.json", "another agent's credentials"},
	{".claude", "another agent's credentials"},
	{".codex", "another agent's credentials"},
	{".gemini", "another agent's credentials"},
	{".config/tai", "tai's own configuration"},
	{".local/share/tai", "tai's own home (the vault, its keys and records)"},
}

// HostOf is the host a URL names, as grants store it: lower case, with the
// port only when it is not the scheme's default.
func HostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" || u.Scheme == "http" && port == "80" || u.Scheme == "https" && port == "443" {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return net.JoinHostPort(host, port)
}

// IsLocalHost reports whether host (a URL's host name or address, without
// port) names this machine, a private network or a cloud metadata service:
// by its name, as a literal address, or by any address it resolves to now.
// A name that does not resolve is not local here; the web tools check the
// address they actually dial again, so a name that later resolves to a
// private address is still refused (DNS rebinding).
func IsLocalHost(ctx context.Context, host string) bool {
	h := strings.Trim(host, "[]")
	if netaddr.NameKind(h) != "" {
		return true
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		return netaddr.Kind(ip) != ""
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", h)
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if netaddr.Kind(a) != "" {
			return true
		}
	}
	return false
}

// HostName is a URL's host name or address, lower case, without port or
// brackets: what local-host grants name, since the address dialled is
// what makes a request local, whatever its port.
func HostName(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

type localHostsKey struct{}

// WithLocalHosts is ctx carrying hosts a person approved by name for one
// call although they resolve to local addresses (Verdict.LocalHosts).
func WithLocalHosts(ctx context.Context, hosts []string) context.Context {
	if len(hosts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, localHostsKey{}, hosts)
}

// LocalHostApproved reports whether a request to host may reach a local
// address: the person approved it by name on this call's screen, or a
// standing local-host grant covers it on env's profile.
func LocalHostApproved(ctx context.Context, env *Env, host string) bool {
	hosts, _ := ctx.Value(localHostsKey{}).([]string)
	for _, h := range hosts {
		if h == host {
			return true
		}
	}
	if env == nil || env.Store == nil {
		return false
	}
	ok, err := env.Store.HasGrant(ctx, env.Profile, GrantLocalHost, host)
	return err == nil && ok
}

// PathReach is the Reach rule of a tool that reads the file or directory
// path(in) names (def when it is empty).
func PathReach[In any](def string, path func(In) string) Rule[In] {
	return ReachBy(func(call Call, in In) Reach { return pathReach(call, cmp.Or(path(in), def)) })
}

func pathReach(call Call, path string) Reach { return Reach{Reads: []string{call.Env.Abs(path)}} }

// TreeReach is PathReach for a tool that reads the content of every file
// beneath its path (grep): the sensitive places inside the tree count as
// read too, so searching a home directory asks.
func TreeReach[In any](def string, path func(In) string) Rule[In] {
	return ReachBy(func(call Call, in In) Reach {
		r := pathReach(call, cmp.Or(path(in), def))
		r.Reads = append(r.Reads, SensitiveWithin(r.Reads[0], call.Env.TaiHome())...)
		return r
	})
}

// SensitiveWithin lists the sensitive places (see Sensitive) that exist
// beneath dir.
func SensitiveWithin(dir, taiHome string) []string {
	dir = Resolve(dir)
	var out []string
	add := func(p string) {
		if p != dir && Within(Resolve(p), dir) {
			if _, err := os.Lstat(p); err == nil {
				out = append(out, p)
			}
		}
	}
	if taiHome != "" {
		add(taiHome)
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		for _, c := range credentialPaths {
			add(filepath.Join(home, filepath.FromSlash(c.rel)))
		}
	}
	if Within("/proc", dir) {
		out = append(out, "/proc/self/environ")
	}
	return out
}

// TaiHome is the directory of tai's vault, or "".
func (e *Env) TaiHome() string {
	if e == nil || e.Store == nil {
		return ""
	}
	return filepath.Dir(e.Store.Path())
}
