package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"tai/internal/lazyre"
)

// What the sandbox refuses reaches a command as an errno (EACCES, EPERM,
// EROFS), which programs print in their own words. Explain reads the
// output of a command that failed for the usual wordings and says, in
// one line for the person and the model, what was refused and how to
// allow it; "" when nothing in the output looks refused.

var (
	// deniedPath finds a path before or inside a refusal: "cat: /x:
	// Permission denied", "open /x: permission denied", "EACCES:
	// permission denied, open '/x'", "/x: Read-only file system".
	deniedPath = lazyre.New(`(?i)(?:^|[\s'"(])((?:/|\./|\.\./|~/)[^\s'"():]*|[\w.-]+/[^\s'"():]*)['"]?\)?:?\s*(?:permission denied|operation not permitted|read-only file system)` +
		`|(?i)(?:permission denied|operation not permitted|read-only file system)[^'"\n]*['"]((?:/|\./)[^'"\n]+)['"]` +
		`|(?i)(?:cannot|can't) (?:create|touch|open|remove|write to|mkdir)(?: directory)? ['"]?([^\s'":]+)['"]?:\s*(?:permission denied|operation not permitted|read-only file system)`)
	// hiddenPath finds a path reported missing: a protected path is hidden
	// from a command (in a mount namespace, it looks empty).
	hiddenPath = lazyre.New(`(?i)(?:^|[\s'"(])((?:/|\./|\.\./)[^\s'"():]*)['"]?\)?:?\s*no such file or directory`)
	// netRefused finds a network failure as the usual tools word it.
	netRefused = lazyre.New(`(?i)could not resolve host|temporary failure in name resolution|name or service not known|getaddrinfo|eai_again|enotfound|network is unreachable|` +
		`connect: permission denied|connect: operation not permitted|socket: permission denied|failed to establish a new connection|couldn't connect to server|` +
		`unable to access 'https?://|connection refused|econnrefused`)
)

// Explain says what the sandbox of p most likely refused the command run
// in dir whose output is out, or "".
func Explain(p Policy, dir, out string) string {
	var lines []string
	seen := map[string]bool{}
	for _, m := range deniedPath.Regexp().FindAllStringSubmatch(out, 8) {
		path := m[1] + m[2] + m[3] // one group matched
		path = strings.TrimRight(path, ".,;")
		if path == "" || strings.HasPrefix(path, "~") {
			continue
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if seen[path] {
			continue
		}
		seen[path] = true
		switch {
		case !p.Readable(path):
			lines = append(lines, fmt.Sprintf("reading %s (a protected path: keys and credentials are never readable by commands)", path))
		case !p.Writable(path) && p.Mode == ReadOnly:
			lines = append(lines, fmt.Sprintf("writing %s (the sandbox is read-only: run tai with --sandbox workspace-write to let commands write the workspace)", path))
		case isKept(p, path):
			lines = append(lines, fmt.Sprintf("writing %s (.git/hooks and .git/config stay read-only: they would run code later)", path))
		case !p.Writable(path):
			lines = append(lines, fmt.Sprintf("writing %s (outside the workspace: add its directory with --add-dir, or rerun this one command with \"unsandboxed\": true, which asks the person)", path))
		}
	}
	for _, m := range hiddenPath.Regexp().FindAllStringSubmatch(out, 8) {
		path := m[1]
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if !seen[path] && !p.Readable(path) {
			seen[path] = true
			lines = append(lines, fmt.Sprintf("reading %s (a protected path: keys and credentials are never readable by commands, and look empty to them)", path))
		}
	}
	switch {
	case p.Network || !netRefused.MatchString(out):
	case p.Proxy != nil:
		lines = append(lines, "the network (a sandboxed command has a network of its own: programs that honour HTTPS_PROXY reach hosts through tai's proxy, which asks for each, and nothing else is reachable, this machine's own services included: rerun this one command with \"unsandboxed\": true, which asks the person, or run tai with --sandbox off)")
	default:
		lines = append(lines, "the network (it is off for sandboxed commands: rerun this one command with \"unsandboxed\": true, which asks the person, or run tai with --sandbox off)")
	}
	if len(lines) == 0 {
		return ""
	}
	return "[sandbox refused: " + strings.Join(lines, "; ") + "]"
}

func isKept(p Policy, path string) bool {
	for _, k := range p.Keep {
		if within(path, k) {
			return true
		}
	}
	return false
}
