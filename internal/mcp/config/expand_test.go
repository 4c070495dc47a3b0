package config

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sources builds Sources over fixed maps: the test's environment and the
// vault of the current profile.
func sources(env, vault map[string]string) Sources {
	return Sources{
		Env: func(n string) (string, bool) { v, ok := env[n]; return v, ok },
		Secret: func(n string) (string, bool, error) {
			v, ok := vault[n]
			return v, ok, nil
		},
		GOOS: "linux",
	}
}

func mustNormalize(t *testing.T, file string) Entry {
	t.Helper()
	es, err := Normalize(readTestdata(t, file), Options{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%s: %v, %d entries", file, err, len(es))
	}
	return es[0]
}

func TestExpandVars_InputFromVault(t *testing.T) {
	e := mustNormalize(t, "vscode_inputs.json")
	x, err := ExpandVars(e, sources(nil, map[string]string{"perplexity-key": "pplx-secret"}))
	if err != nil || x.Err() != nil {
		t.Fatalf("%v, %v", err, x.Err())
	}
	if got := x.Entry.Env["PERPLEXITY_API_KEY"]; got != "pplx-secret" {
		t.Errorf("env = %q", got)
	}
	wantRefs := []Ref{{Text: "${input:perplexity-key}", Name: "perplexity-key", Origin: FromSecret, Fields: []string{"env.PERPLEXITY_API_KEY"}}}
	if diff := cmp.Diff(wantRefs, x.Refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"perplexity-key": "pplx-secret"}, x.Secrets); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
	if e.Env["PERPLEXITY_API_KEY"] != "${input:perplexity-key}" {
		t.Errorf("ExpandVars changed its argument: %q", e.Env)
	}
}

// TestExpandVars_MissingInputRefusesTheSpawn: an input is never looked up
// in the environment, and a missing one stops the server.
func TestExpandVars_MissingInputRefusesTheSpawn(t *testing.T) {
	e := mustNormalize(t, "vscode_inputs.json")
	x, err := ExpandVars(e, sources(map[string]string{"perplexity-key": "from-env"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"${input:perplexity-key}"}, x.Missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
	if got := x.Entry.Env["PERPLEXITY_API_KEY"]; got != "${input:perplexity-key}" {
		t.Errorf("the literal is not kept for display: %q", got)
	}
	wantWarn := []string{"${input:perplexity-key}: no vault secret perplexity-key; store it with tai secret set perplexity-key"}
	if diff := cmp.Diff(wantWarn, x.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// An input is read from the vault only: the error names the secret to
	// store, not the environment.
	want := "server perplexity cannot start: ${input:perplexity-key}: no vault secret perplexity-key; store it with tai secret set perplexity-key"
	if err := x.Err(); err == nil || err.Error() != want {
		t.Errorf("Err() = %v\nwant    %s", err, want)
	}
	if len(x.Secrets) != 0 {
		t.Errorf("secrets = %v", x.Secrets)
	}
}

func TestExpandVars_ClaudeCodeDefaults(t *testing.T) {
	e := mustNormalize(t, "claude_code.json")
	x, err := ExpandVars(e, sources(map[string]string{"API_KEY": "sk-123456"}, nil))
	if err != nil || x.Err() != nil {
		t.Fatalf("%v, %v", err, x.Err())
	}
	if x.Entry.URL != "https://api.example.com/mcp" || x.Entry.Headers["Authorization"] != "Bearer sk-123456" {
		t.Errorf("url %q, headers %q", x.Entry.URL, x.Entry.Headers)
	}
	wantRefs := []Ref{
		{Text: "${API_BASE_URL:-https://api.example.com}", Name: "API_BASE_URL", Origin: FromDefault, Fields: []string{"url"}},
		{Text: "${API_KEY}", Name: "API_KEY", Origin: FromEnvironment, Fields: []string{"headers.Authorization"}},
	}
	if diff := cmp.Diff(wantRefs, x.Refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"API_KEY": "sk-123456"}, x.Secrets); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
}

// TestExpandVars_Order: the environment first, then the vault, then the
// default; with a default an empty value counts as unset.
func TestExpandVars_Order(t *testing.T) {
	env := map[string]string{"BOTH": "env", "EMPTY": ""}
	vault := map[string]string{"BOTH": "vault", "ONLY_VAULT": "v", "EMPTY": "vault-for-empty"}
	tests := []struct {
		in, want string
		origin   Origin
	}{
		{"${BOTH}", "env", FromEnvironment},
		{"${ONLY_VAULT}", "v", FromSecret},
		{"${ONLY_VAULT:-d}", "v", FromSecret},
		{"${NOWHERE:-d}", "d", FromDefault},
		{"${NOWHERE:-}", "", FromDefault},
		{"${EMPTY}", "", FromEnvironment},
		{"${EMPTY:-d}", "vault-for-empty", FromSecret},
		{"${env:BOTH}", "env", FromEnvironment},
	}
	for _, tt := range tests {
		e := Entry{Name: "x", Transport: Stdio, Command: "srv", Args: []string{"a" + tt.in + "b"}}
		x, err := ExpandVars(e, sources(env, vault))
		if err != nil || len(x.Refs) != 1 {
			t.Fatalf("%s: %v, refs %v", tt.in, err, x.Refs)
		}
		if got := x.Entry.Args[0]; got != "a"+tt.want+"b" || x.Refs[0].Origin != tt.origin {
			t.Errorf("%s = %q from %s; want %q from %s", tt.in, got, x.Refs[0].Origin, "a"+tt.want+"b", tt.origin)
		}
	}
}

func TestExpandVars_Predefined(t *testing.T) {
	e := Entry{Name: "x", Transport: Stdio, Command: "python",
		Args: []string{"${workspaceFolder}/tools/mcp_server.py", "${userHome}${pathSeparator}x", "${workspaceFolderBasename}"}}
	src := sources(nil, nil)
	src.Home, src.Dir = "/home/ann", "/src/proj"
	x, err := ExpandVars(e, src)
	if err != nil || x.Err() != nil {
		t.Fatalf("%v, %v", err, x.Err())
	}
	want := []string{"/src/proj/tools/mcp_server.py", "/home/ann/x", "proj"}
	if diff := cmp.Diff(want, x.Entry.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	for _, r := range x.Refs {
		if r.Origin != FromPredefined {
			t.Errorf("%s from %s", r.Text, r.Origin)
		}
	}
	// Without a directory, ${workspaceFolder} is just a variable.
	x, _ = ExpandVars(e, sources(nil, nil))
	if !slices.Contains(x.Missing, "${workspaceFolder}") {
		t.Errorf("missing = %v", x.Missing)
	}
}

// TestExpandVars_UnsupportedAndEscaped: a client-specific ${…} is refused
// rather than passed on; $${ is a literal ${.
func TestExpandVars_UnsupportedAndEscaped(t *testing.T) {
	e := Entry{Name: "x", Transport: Stdio, Command: "srv", Args: []string{"${file:/etc/token}", "$${HOME}", "cost $5", "${unterminated"}}
	x, err := ExpandVars(e, sources(map[string]string{"HOME": "/root"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"${file:/etc/token}", "${HOME}", "cost $5", "${unterminated"}
	if diff := cmp.Diff(want, x.Entry.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"${file:/etc/token}"}, x.Missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
	wantWarn := "${file:/etc/token} is not a reference tai expands: write ${NAME}, ${NAME:-default} or ${input:ID}, or $${ for a literal ${"
	if len(x.Warnings) != 1 || x.Warnings[0] != wantWarn {
		t.Errorf("warnings = %q", x.Warnings)
	}
}

// TestExpandVars_Secrets: what goes to redaction.
func TestExpandVars_Secrets(t *testing.T) {
	e := Entry{Name: "x", Transport: Stdio, Command: "srv",
		Args: []string{"--root", "${HOME}", "--token", "${VAULT_TOKEN}", "--mode", "${MODE:-fast}"},
		Env:  map[string]string{"API_KEY": "${API_KEY}", "PATHS": "${HOME}:${HOME}/bin"}}
	x, err := ExpandVars(e, sources(map[string]string{"HOME": "/home/ann", "API_KEY": "sk-live-1"}, map[string]string{"VAULT_TOKEN": "vt-9"}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"HOME": "/home/ann", "API_KEY": "sk-live-1", "VAULT_TOKEN": "vt-9"}
	if diff := cmp.Diff(want, x.Secrets); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
	wantRefs := []Ref{
		{Text: "${HOME}", Name: "HOME", Origin: FromEnvironment, Fields: []string{"args[1]", "env.PATHS"}},
		{Text: "${VAULT_TOKEN}", Name: "VAULT_TOKEN", Origin: FromSecret, Fields: []string{"args[3]"}},
		{Text: "${MODE:-fast}", Name: "MODE", Origin: FromDefault, Fields: []string{"args[5]"}},
		{Text: "${API_KEY}", Name: "API_KEY", Origin: FromEnvironment, Fields: []string{"env.API_KEY"}},
	}
	if diff := cmp.Diff(wantRefs, x.Refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
}

func TestExpandVars_SecretSourceFails(t *testing.T) {
	sealed := errors.New("vault is sealed: set TAI_VAULT_PASSPHRASE")
	src := Sources{Env: func(string) (string, bool) { return "", false },
		Secret: func(string) (string, bool, error) { return "", false, sealed }}
	e := Entry{Name: "x", Transport: Stdio, Command: "srv", Env: map[string]string{"K": "${K}"}}
	_, err := ExpandVars(e, src)
	if !errors.Is(err, sealed) || err.Error() != "reading vault secret K: vault is sealed: set TAI_VAULT_PASSPHRASE" {
		t.Errorf("err = %v", err)
	}
}

func TestExpandVars_WindowsNpx(t *testing.T) {
	tests := []struct {
		goos, command string
		wantCmd       string
		wantArgs      []string
	}{
		{"windows", "npx", "cmd", []string{"/c", "npx", "-y", "pkg"}},
		{"windows", "NPX.cmd", "cmd", []string{"/c", "NPX.cmd", "-y", "pkg"}},
		{"windows", `C:\Program Files\nodejs\npx`, "cmd", []string{"/c", `C:\Program Files\nodejs\npx`, "-y", "pkg"}},
		{"windows", "uvx", "uvx", []string{"-y", "pkg"}},
		{"linux", "npx", "npx", []string{"-y", "pkg"}},
		{"darwin", "npx", "npx", []string{"-y", "pkg"}},
	}
	for _, tt := range tests {
		e := Entry{Name: "x", Transport: Stdio, Command: tt.command, Args: []string{"-y", "pkg"}}
		x, err := ExpandVars(e, Sources{GOOS: tt.goos, Env: func(string) (string, bool) { return "", false }})
		if err != nil {
			t.Fatal(err)
		}
		if x.Entry.Command != tt.wantCmd || !cmp.Equal(x.Entry.Args, tt.wantArgs) {
			t.Errorf("%s %s: %s %q; want %s %q", tt.goos, tt.command, x.Entry.Command, x.Entry.Args, tt.wantCmd, tt.wantArgs)
		}
		if e.Command != tt.command || len(e.Args) != 2 {
			t.Errorf("ExpandVars changed its argument")
		}
	}
}

// TestExpandVars_UncarriableValues: a substituted value that would split a
// header or turn the url into something else fails, without quoting it.
func TestExpandVars_UncarriableValues(t *testing.T) {
	env := map[string]string{"TOKEN": "abc\r\nX-Evil: 1", "BASE": "file:///etc"}
	tests := []struct {
		e    Entry
		want string
	}{
		{Entry{Name: "x", Transport: HTTP, URL: "https://a.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}},
			"server x: header Authorization: value holds a line break or NUL"},
		{Entry{Name: "x", Transport: HTTP, URL: "${BASE}/mcp"},
			"server x: url ${BASE}/mcp does not expand to an http or https address"},
	}
	for _, tt := range tests {
		_, err := ExpandVars(tt.e, sources(env, nil))
		if err == nil || err.Error() != tt.want {
			t.Errorf("err = %v\nwant  %s", err, tt.want)
		}
		if err != nil && (strings.Contains(err.Error(), "abc") || strings.Contains(err.Error(), "/etc")) {
			t.Errorf("the error quotes a substituted value: %v", err)
		}
	}
}

// A key substituted from the environment into the command line (Context7's
// `--api-key ${CTX7_KEY}` for Cursor) is a secret like one in env: consent
// screens and errors mask it. A variable every server inherits anyway
// (HOME) is shown as it is there.
func TestExpandVars_EnvironmentIntoArgsIsSecret(t *testing.T) {
	e := Entry{Name: "context7", Transport: Stdio, Command: "npx",
		Args: []string{"-y", "@upstash/context7-mcp", "--api-key", "${CTX7_KEY}", "--root", "${HOME}"}}
	src := sources(map[string]string{"HOME": "/home/ann", "CTX7_KEY": "ctx7sk-live-123"}, nil)
	src.Public = func(n string) bool { return n == "HOME" }
	x, err := ExpandVars(e, src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"CTX7_KEY": "ctx7sk-live-123"}, x.Secrets); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
}
