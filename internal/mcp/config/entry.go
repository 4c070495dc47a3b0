package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Transports of an [Entry].
const (
	Stdio = "stdio" // a command tai spawns
	HTTP  = "http"  // a Streamable HTTP endpoint tai dials
)

// Sources of an [Entry]: what was pasted. The resolver sets
// "github:<owner>/<repo>" through [GitHubSource].
const (
	SourceJSON     = "config-json"
	SourceTOML     = "config-toml"
	SourceExplicit = "explicit" // tai mcp add NAME -- CMD ARGS…
	SourceURL      = "url"      // a plain https URL
)

// GitHubSource is the Source of an entry resolved from owner/repo.
func GitHubSource(owner, repo string) string { return "github:" + owner + "/" + repo }

// Entry is one MCP server as tai stores it (a row of mcp_servers). Strings
// keep their ${VAR} references as written; [ExpandVars] substitutes them at
// use time. Maps are nil rather than empty.
type Entry struct {
	Name      string // matches the server-name charset, see [SanitizeName]
	Transport string // [Stdio] or [HTTP]
	Command   string // stdio only
	Args      []string
	Env       map[string]string
	URL       string // http only
	Headers   map[string]string
	Cwd       string
	// Allow and Deny filter the server's tools (TOML enabled_tools and
	// disabled_tools, Gemini includeTools and excludeTools): when Allow is
	// set only its tools are offered, then Deny removes its tools.
	Allow []string
	Deny  []string
	// Enabled is the config's own enabled/disabled flag, nil when it has
	// none. The caller applies it to the registering profile only.
	Enabled *bool
	// CallTimeout is a pasted tool_timeout_sec (Codex) or timeout (Gemini
	// CLI, Cline, Crush): the server's own limit on each request after the
	// handshake, in place of MCP_CALL_TIMEOUT; zero when none. Stored with
	// the server as its timeout setting.
	CallTimeout time.Duration
	// StartupTimeout is a pasted startup_timeout_sec or startup_timeout_ms
	// (Codex): the server's own limit on a start plus handshake, in place
	// of MCP_CONNECT_TIMEOUT; it also lengthens the first start at
	// registration when longer than tai's own allowance. Zero when none.
	// Stored with the server as its startup_timeout setting.
	StartupTimeout time.Duration
	// OAuth is a client registered beforehand with the server's
	// authorization server (HTTP only), nil when none.
	OAuth *OAuthClient
	// Sandbox narrows or widens a stdio server's confinement; nil keeps
	// the default.
	Sandbox *SandboxSpec
	Source  string
	// Notes are warnings to show the person at consent: ignored keys,
	// derived names, transport repairs. Never instructions.
	Notes []string
}

// Validate checks the invariants every entry from this package holds, so a
// caller can check an entry it read back from storage.
func (e Entry) Validate() error {
	if err := checkName(e.Name); err != nil {
		return err
	}
	switch e.Transport {
	case Stdio:
		if e.Command == "" || e.URL != "" || e.Headers != nil {
			return fmt.Errorf("server %s: a stdio entry needs a command and no url or headers", e.Name)
		}
	case HTTP:
		if e.URL == "" || e.Command != "" || e.Args != nil || e.Env != nil || e.Cwd != "" {
			return fmt.Errorf("server %s: an http entry needs a url and no command, args, env or cwd", e.Name)
		}
		if !strings.Contains(e.URL, "${") {
			if err := checkURL(e.URL); err != nil {
				return fmt.Errorf("server %s: %w", e.Name, err)
			}
		}
	default:
		return fmt.Errorf("server %s: unknown transport %q", e.Name, e.Transport)
	}
	return checkStrings(e)
}

// checkStrings refuses what no process or HTTP request can carry.
func checkStrings(e Entry) error {
	if strings.ContainsRune(e.Command, 0) || strings.ContainsRune(e.Cwd, 0) {
		return fmt.Errorf("server %s: command or cwd holds a NUL byte", e.Name)
	}
	for i, a := range e.Args {
		if strings.ContainsRune(a, 0) {
			return fmt.Errorf("server %s: args[%d] holds a NUL byte", e.Name, i)
		}
	}
	for k, v := range e.Env {
		if err := checkEnvName(k); err != nil {
			return fmt.Errorf("server %s: %w", e.Name, err)
		}
		if strings.ContainsRune(v, 0) {
			return fmt.Errorf("server %s: env %s holds a NUL byte", e.Name, k)
		}
	}
	for k, v := range e.Headers {
		if err := checkHeader(k, v); err != nil {
			return fmt.Errorf("server %s: %w", e.Name, err)
		}
	}
	return nil
}

// checkEnvName accepts printable ASCII without spaces or '=': every name a
// real server reads, and nothing that could garble a consent screen.
func checkEnvName(k string) error {
	ok := k != ""
	for _, c := range []byte(k) {
		if c <= ' ' || c >= 0x7f || c == '=' {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("env name %s is not a variable name", quote(k))
	}
	return nil
}

// checkHeader accepts an HTTP field name (RFC 9110 token) and a value
// without line breaks or NUL.
func checkHeader(name, value string) error {
	if name == "" {
		return errors.New("a header has an empty name")
	}
	for _, c := range []byte(name) {
		if !isTokenChar(c) {
			return fmt.Errorf("header name %s is not a valid HTTP header name", quote(name))
		}
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("header %s: value holds a line break or NUL", name)
	}
	return nil
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// shown renders untrusted text for a note or error: as is when it is made
// of name characters, else quoted.
func shown(s string) string {
	for _, r := range s {
		if !isNameChar(r) {
			return quote(s)
		}
	}
	return s
}

// quote renders untrusted text for a one-line error: Go-quoted, so control
// characters are escaped, and cut short.
func quote(s string) string {
	if len(s) <= 60 {
		return strconv.Quote(s)
	}
	return strconv.Quote(strings.TrimSuffix(cut(s, 60), "…")) + "…"
}
