package client

import (
	"runtime"
	"sort"
	"strings"
)

// inherited names the variables a stdio server gets from tai's own
// environment, beside what its entry sets. Everything else (cloud and
// forge tokens, API keys, tai's own TAI_* settings) stays behind: a server
// receives a credential only when its entry names it. The list is the
// official TypeScript SDK's default (HOME, LOGNAME, PATH, SHELL, TERM,
// USER), which `npx` and `uvx` need to find programs and their caches,
// plus what only says how to format and where to put temporary files:
//
//   - LANG, LC_*: the locale, so a server decodes and prints text as the
//     person's other programs do.
//   - TMPDIR: on macOS a private per-user folder; without it programs fall
//     back to the shared /tmp.
//   - TZ: the time zone a server reports times in.
var inherited = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_*", "TMPDIR", "TZ"}

// inheritedWindows is the TypeScript SDK's list for Windows, where the
// names are case-insensitive.
var inheritedWindows = []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
	"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}

// proxies are passed on when their value carries no credentials
// (user:password@). The TypeScript SDK passes none, but then `npx -y`
// and `uvx` cannot fetch a package on a network that only reaches out
// through a proxy; a proxy's address is network configuration, which any
// server can probe for anyway, while a password in it is a secret. A
// proxy with credentials reaches a server only through its entry (for
// example Codex env_vars = ["HTTPS_PROXY"]).
var proxies = []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy"}

// InheritedEnv describes, for a consent screen, which of tai's variables
// a stdio server receives.
func InheritedEnv() string {
	names := inherited
	if runtime.GOOS == "windows" {
		names = inheritedWindows
	}
	return strings.Join(names, ", ") + ", and proxy settings without credentials (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY)"
}

// childEnv is what a stdio server runs with: the inherited variables of
// environ ("K=V" entries), then extra, the entry's own env, which adds to
// or overrides them. Sorted, so that it does not depend on map order.
func childEnv(environ []string, extra map[string]string, goos string) []string {
	var env []string
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && passes(k, v, goos) {
			if _, over := extra[k]; !over {
				env = append(env, kv)
			}
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}

// Inherits reports whether a stdio server on this system receives tai's
// variable name without its entry naming it (proxies aside).
func Inherits(name string) bool {
	return !isProxy(name) && passes(name, "", runtime.GOOS)
}

// passes reports whether tai's variable k=v reaches a server unasked.
func passes(k, v string, goos string) bool {
	// An exported shell function (bash's "() {" values) is code, not a
	// setting; the TypeScript SDK drops them too.
	if strings.HasPrefix(v, "()") {
		return false
	}
	if isProxy(k) {
		return !strings.Contains(v, "@")
	}
	names := inherited
	if goos == "windows" {
		names, k = inheritedWindows, strings.ToUpper(k)
	}
	for _, n := range names {
		if prefix, ok := strings.CutSuffix(n, "*"); ok && strings.HasPrefix(k, prefix) || n == k {
			return true
		}
	}
	return false
}

func isProxy(k string) bool {
	for _, p := range proxies {
		if p == k {
			return true
		}
	}
	return false
}
