// Package sandbox confines what a command tai runs can reach: approval
// decides whether it runs, the kernel decides what it can touch. A
// sandboxed command reads the filesystem except the protected paths
// (tai's home, SSH and GPG keys, cloud and registry credentials, browser
// profiles), writes only the workspace (never its .git/hooks or
// .git/config), the temporary directory and the package caches, and has
// no network; read-only mode writes nowhere but a private temporary
// directory. The confinement is inherited by everything the command
// starts: background jobs, a server's grandchildren.
//
// On Linux the command runs under a second copy of tai's own binary
// ([Arg]) that, in a user and mount namespace of its own, bind-mounts the
// read-only parts of the workspace, then restricts itself with Landlock
// (files, TCP, signals and abstract sockets) and a seccomp filter (no
// ptrace, no new user namespaces, no mounts, no UDP or raw sockets while
// the network is off, no io_uring, no kernel keyrings) and executes the
// command. Where the kernel lacks one of those, [Probe] says what is
// missing, and callers say so: never silently. See docs/reliability.md,
// "The sandbox".
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Modes of the sandbox, the names Codex users know.
const (
	ReadOnly       = "read-only"
	WorkspaceWrite = "workspace-write"
	Off            = "off"
)

// Default is the mode when none is set.
const Default = WorkspaceWrite

// CheckMode explains a mode that is not one.
func CheckMode(m string) error {
	switch m {
	case ReadOnly, WorkspaceWrite, Off:
		return nil
	}
	return fmt.Errorf("sandbox %q: give read-only, workspace-write or off", m)
}

// Policy is what one sandboxed command may reach.
type Policy struct {
	Mode string `json:"mode"`
	// Write are the directories it may change (workspace-write: the
	// workspace, the temporary directory, the caches; read-only: a
	// private temporary directory).
	Write []string `json:"write,omitempty"`
	// Keep are paths inside Write that stay read-only (.git/hooks,
	// .git/config of each workspace directory).
	Keep []string `json:"keep,omitempty"`
	// Protected are never readable (see Protected).
	Protected []string `json:"protected,omitempty"`
	// Network lets it connect and send anywhere; otherwise TCP connect
	// and bind are refused, and UDP and raw sockets cannot be made.
	Network bool `json:"network,omitempty"`
	// Proxy, with the network off, is the helper's end of tai's egress
	// proxy (internal/egress): the command gets a network of its own with
	// only a loopback, and its proxy variables lead there. Where tai cannot
	// make the namespaces, it is ignored and the network is simply off.
	Proxy *os.File `json:"-"`
	// ProxyFD is where the helper finds Proxy (set by Wrap).
	ProxyFD int `json:"proxy_fd,omitempty"`
	// Set by Wrap for the helper: OwnNetwork when the command has a
	// network namespace of its own (the network off, namespaces there);
	// NoLandlock when the kernel has none, so that the namespaces confine
	// alone (read-only mounts but the writable directories); Parent is
	// tai's pid, which the seccomp filter keeps signals from.
	OwnNetwork bool `json:"own_network,omitempty"`
	NoLandlock bool `json:"no_landlock,omitempty"`
	Parent     int  `json:"parent,omitempty"`
}

// Protected is the one list of paths no sandboxed command may read, for
// home (the person's home directory) and taiHome (tai's own): keys,
// credentials of clouds, registries and package managers, password
// stores and keyrings, browser profiles. docs/reliability.md shows it.
func Protected(home, taiHome string) []string {
	var out []string
	if taiHome != "" {
		out = append(out, taiHome)
	}
	if home == "" {
		return out
	}
	for _, p := range protectedInHome {
		out = append(out, filepath.Join(home, filepath.FromSlash(p)))
	}
	return out
}

// ServerProtected is Protected for a stdio MCP server: the same, but the
// package managers' own configuration (.npmrc, .yarnrc), which npx needs
// to find its registry (a mirror, a proxy, a private registry's token),
// stays readable to it.
func ServerProtected(home, taiHome string) []string {
	var out []string
	for _, p := range Protected(home, taiHome) {
		if base := filepath.Base(p); home != "" && filepath.Dir(p) == home && slices.Contains(packageConfig, base) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// packageConfig are the protected files a server may read (ServerProtected).
var packageConfig = []string{".npmrc", ".yarnrc"}

// protectedInHome are the protected paths under the home directory.
var protectedInHome = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker",
	".netrc", ".git-credentials", ".config/git/credentials", ".config/gh", ".config/hub",
	".npmrc", ".yarnrc", ".pypirc", ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml",
	".terraform.d", ".config/op", ".password-store", ".local/share/keyrings", ".vault-token",
	".mozilla", ".thunderbird", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", "snap/firefox", "snap/chromium",
	"Library/Keychains", "Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
	"Library/Cookies",
}

// caches are the package and build caches under the home directory a
// workspace-write command may fill (go build, npm, pip, cargo, maven).
var caches = []string{".cache", ".npm", "go/pkg/mod", ".cargo/registry", ".cargo/git", ".m2/repository", ".gradle/caches",
	".local/share/pnpm", "Library/Caches"}

// Workspace is the policy of mode for a command in dirs (the working
// directory and the --add-dir ones), with home and taiHome as above and
// tmp the temporary directory (read-only mode gets a private one).
func Workspace(mode string, dirs []string, home, taiHome, tmp string) Policy {
	p := Policy{Mode: mode, Protected: Protected(home, taiHome)}
	if mode == ReadOnly {
		p.Write = []string{tmp}
		return p
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p.Write = append(p.Write, d)
		p.Keep = append(p.Keep, filepath.Join(d, ".git", "hooks"), filepath.Join(d, ".git", "config"))
	}
	p.Write = append(p.Write, tmp)
	if home != "" {
		for _, c := range caches {
			p.Write = append(p.Write, filepath.Join(home, filepath.FromSlash(c)))
		}
	}
	return p
}

// Writable reports whether path is inside one of p's writable
// directories and not kept read-only.
func (p Policy) Writable(path string) bool {
	for _, k := range p.Keep {
		if within(path, k) {
			return false
		}
	}
	return slices.ContainsFunc(p.Write, func(w string) bool { return within(path, w) })
}

// Readable reports whether path is outside every protected path.
func (p Policy) Readable(path string) bool {
	return !slices.ContainsFunc(p.Protected, func(pr string) bool { return within(path, pr) })
}

func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ErrUnavailable is Wrap's error where tai cannot confine a command.
var ErrUnavailable = errors.New("the sandbox is not available here")

// realPaths resolves symbolic links, keeping each path as given too (a
// protected link and its target are both protected).
func realPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		p = filepath.Clean(p)
		out = append(out, p)
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			out = append(out, r)
		}
	}
	return out
}

// prepare checks that cmd has not started, makes the XDG cache when it is
// missing (go build's, pip's, uv's: inside, its parent, the home
// directory, is not writable), and returns the command's path as the
// wrapper must name it.
func prepare(cmd *exec.Cmd, p Policy) (string, error) {
	if cmd.Process != nil || cmd.Err != nil {
		return "", fmt.Errorf("sandbox: the command is started or broken")
	}
	for _, w := range p.Write {
		if filepath.Base(w) == ".cache" {
			if _, err := os.Stat(w); os.IsNotExist(err) {
				_ = os.MkdirAll(w, 0o700)
			}
		}
	}
	path := cmd.Path
	if !filepath.IsAbs(path) && cmd.Dir != "" {
		path = filepath.Join(cmd.Dir, path)
	}
	return path, nil
}

// Status is what the system offers the sandbox.
type Status struct {
	// Confines is set when tai can confine commands here at all; What
	// names how ("Landlock ABI 7, user, mount and network namespaces,
	// seccomp").
	Confines bool
	What     string
	// Landlock is set when the kernel confines files (ABI ≥ 1); ABI is
	// its version (4 and above confine TCP, 6 and above signals and
	// abstract sockets).
	Landlock bool
	ABI      int
	// Namespaces is set when tai can make a user and mount namespace, in
	// which .git/hooks and .git/config of the workspace stay read-only.
	Namespaces bool
	// Why says what is missing, "" when nothing is.
	Why string
}
