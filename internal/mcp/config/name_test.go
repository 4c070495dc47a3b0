package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSanitizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"filesystem", "filesystem"},
		{"My Server", "My_Server"},
		{"a  /  b", "a_b"},
		{"-leading.and.trailing-", "leading.and.trailing"},
		{"über", "ber"},
		{"@scope/pkg", "scope_pkg"},
		{strings.Repeat("x", 70), strings.Repeat("x", 64)},
		{strings.Repeat("x", 63) + "-y", strings.Repeat("x", 63)},
	}
	for _, tt := range tests {
		got, err := SanitizeName(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("SanitizeName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "🚀", "---", "...", " "} {
		if got, err := SanitizeName(in); err == nil {
			t.Errorf("SanitizeName(%q) = %q, want an error", in, got)
		}
	}
}

func TestNormalize_SanitizedNameIsNoted(t *testing.T) {
	got, err := Normalize(`{"mcpServers":{"My Server":{"command":"srv"}}}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "My_Server", Transport: Stdio, Command: "srv", Source: SourceJSON,
		Notes: []string{`name "My Server" stored as My_Server`}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNormalize_DerivedNames: one bare entry is named after what it runs.
func TestNormalize_DerivedNames(t *testing.T) {
	tests := []struct {
		command string
		args    []string
		name    string
		from    string
	}{
		{"npx", []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, "filesystem", "package"},
		{"npx", []string{"-y", "@upstash/context7-mcp@latest"}, "context7", "package"},
		{"npx", []string{"@playwright/mcp@latest"}, "playwright", "package"},
		{"npx", []string{"-y", "--package", "x", "server-perplexity-ask"}, "perplexity-ask", "package"},
		{"uvx", []string{"mcp-server-fetch"}, "fetch", "package"},
		{"uvx", []string{"--from", "git+https://x", "mcp-server-git==0.6.2", "--repository", "."}, "git", "package"},
		{"pnpm", []string{"dlx", "@acme/mcp"}, "acme", "package"},
		{"docker", []string{"run", "-i", "--rm", "-e", "API_KEY", "-v", "/a:/b", "ghcr.io/github/github-mcp-server:v1"}, "github", "image"},
		{"docker", []string{"run", "-i", "--rm", "mcp/perplexity-ask"}, "perplexity-ask", "image"},
		{"python", []string{"-m", "my_mcp_server", "--port", "8080"}, "my_mcp_server", "module"},
		{"node", []string{"dist/weather.js"}, "weather", "script"},
		{"/path/to/weather-cli", []string{"--api-key", "abc123"}, "weather-cli", "command"},
		{`C:\Tools\srv.exe`, nil, "srv", "command"},
		{"npx", nil, "npx", "command"},
	}
	for _, tt := range tests {
		e := Entry{Transport: Stdio, Command: tt.command, Args: tt.args}
		nameDerived(&e)
		want := "name " + tt.name + " derived from the " + tt.from + "; choose another with --name"
		if e.Name != tt.name || len(e.Notes) != 1 || e.Notes[0] != want {
			t.Errorf("%s %q: name %q, notes %q; want %q", tt.command, tt.args, e.Name, e.Notes, want)
		}
	}
}

func TestNormalize_BareEntry(t *testing.T) {
	in := `{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "timeout": 5}`
	want := []Entry{{
		Name: "memory", Transport: Stdio, Command: "npx",
		Args:        []string{"-y", "@modelcontextprotocol/server-memory"},
		CallTimeout: 5 * time.Second,
		Source:      SourceJSON,
		Notes: []string{
			"name memory derived from the package; choose another with --name",
			secondsTimeout(5),
		},
	}}
	got, err := Normalize(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// An explicit name replaces the derived one and its note.
	got, err = Normalize(in, Options{Name: "notes"})
	if err != nil {
		t.Fatal(err)
	}
	want[0].Name, want[0].Notes = "notes", want[0].Notes[1:]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with a name (-want +got):\n%s", diff)
	}
}

// TestNormalize_Fragment: "name": {…} copied out of a larger file.
func TestNormalize_Fragment(t *testing.T) {
	got, err := Normalize(`"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]},`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "fetch", Transport: Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}, Source: SourceJSON,
		Notes: []string{"no mcpServers wrapper: read as a map of servers"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNormalize_RepairRules covers the rules of mcp.md's Normalizer and the
// departures of docs/host.md §7 that the documented configs do not.
func TestNormalize_RepairRules(t *testing.T) {
	tests := []struct {
		name, in string
		want     Entry
	}{
		{"url without type gains http", `{"mcpServers":{"x":{"url":"https://a.example/mcp"}}}`,
			Entry{Name: "x", Transport: HTTP, URL: "https://a.example/mcp", Source: SourceJSON}},
		{"streamable-http spelling", `{"mcpServers":{"x":{"type":"streamable-http","url":"https://a.example/mcp"}}}`,
			Entry{Name: "x", Transport: HTTP, URL: "https://a.example/mcp", Source: SourceJSON}},
		{"a /sse url without type", `{"mcpServers":{"x":{"url":"https://a.example/sse"}}}`,
			Entry{Name: "x", Transport: HTTP, URL: "https://a.example/sse", Source: SourceJSON,
				Notes: []string{"the url ends in /sse, a legacy HTTP+SSE endpoint: tai speaks only Streamable HTTP, so the server must accept it there"}}},
		{"serverUrl and url agree", `{"mcpServers":{"x":{"url":"https://a.example/mcp","serverUrl":"https://a.example/mcp"}}}`,
			Entry{Name: "x", Transport: HTTP, URL: "https://a.example/mcp", Source: SourceJSON}},
		{"keys of the other transport are dropped", `{"mcpServers":{"x":{"url":"https://a.example/mcp","env":{"A":"1"},"cwd":"/tmp"}}}`,
			Entry{Name: "x", Transport: HTTP, URL: "https://a.example/mcp", Source: SourceJSON,
				Notes: []string{"env ignored: tai starts no program for a url server", "cwd ignored: tai starts no program for a url server"}}},
		{"headers on a command are dropped", `{"mcpServers":{"x":{"command":"srv","headers":{"A":"1"}}}}`,
			Entry{Name: "x", Transport: Stdio, Command: "srv", Source: SourceJSON,
				Notes: []string{"headers ignored: a server tai starts gets no HTTP headers"}}},
		{"disabled and excludeTools", `{"mcpServers":{"x":{"command":"srv","disabled":true,"excludeTools":["rm"]}}}`,
			Entry{Name: "x", Transport: Stdio, Command: "srv", Source: SourceJSON, Enabled: ptr(false), Deny: []string{"rm"}}},
		{"unknown keys are noted", `{"mcpServers":{"x":{"command":"srv","description":"d","icon":"\u001b[31m"}}}`,
			Entry{Name: "x", Transport: Stdio, Command: "srv", Source: SourceJSON,
				Notes: []string{`ignored, not used by tai: "description", "icon"`}}},
		{"env and env_vars", "[mcp_servers.x]\ncommand = \"srv\"\nenv_vars = [\"A\", { name = \"B\", source = \"remote\" }]\nenv = { A = \"literal\" }\n",
			Entry{Name: "x", Transport: Stdio, Command: "srv", Source: SourceTOML,
				Env: map[string]string{"A": "literal", "B": "${B}"}}},
		{"env_http_headers alone", "[mcp_servers.x]\nurl = \"https://a.example/mcp\"\nenv_http_headers = { \"X-Key\" = \"KEY\" }\n",
			Entry{Name: "x", Transport: HTTP, URL: "https://a.example/mcp", Source: SourceTOML,
				Headers: map[string]string{"X-Key": "${KEY}"}}},
		{"quoted TOML server name", "[mcp_servers.\"my server\"]\ncommand = \"srv\"\n",
			Entry{Name: "my_server", Transport: Stdio, Command: "srv", Source: SourceTOML,
				Notes: []string{`name "my server" stored as my_server`}}},
		{"escaped ${ and env: rewrite", `{"mcpServers":{"x":{"command":"srv","args":["$${HOME}","${env:HOME}","${HOME:-/root}"]}}}`,
			Entry{Name: "x", Transport: Stdio, Command: "srv", Source: SourceJSON,
				Args:  []string{"$${HOME}", "${HOME}", "${HOME:-/root}"},
				Notes: []string{envRewrite}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]Entry{tt.want}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestExplicit(t *testing.T) {
	got, err := Explicit("everything", []string{"npx", "-y", "@modelcontextprotocol/server-everything", "${env:MODE}"})
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Name: "everything", Transport: Stdio, Command: "npx",
		Args: []string{"-y", "@modelcontextprotocol/server-everything", "${MODE}"}, Source: SourceExplicit}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		name string
		argv []string
		want string
	}{
		{"x", nil, "no command after --: use tai mcp add NAME -- CMD [ARGS…]"},
		{"x", []string{""}, "no command after --: use tai mcp add NAME -- CMD [ARGS…]"},
		{"", []string{"srv"}, "empty server name: give every server a name"},
		{"§§", []string{"srv"}, `server name "§§" has no letters or digits: use letters, digits, '_', '.' or '-'`},
		{"x", []string{"srv", "a\x00"}, "server x: args[0] holds a NUL byte"},
	} {
		if _, err := Explicit(tt.name, tt.argv); err == nil || err.Error() != tt.want {
			t.Errorf("Explicit(%q, %q) = %v, want %s", tt.name, tt.argv, err, tt.want)
		}
	}
}

func TestExplicit_InputNote(t *testing.T) {
	got, err := Explicit("p", []string{"srv", "--key=${input:api-key}"})
	want := []string{"${input:api-key} is read from the vault secret api-key: store it with tai secret set api-key"}
	if err != nil || !cmp.Equal(want, got.Notes) {
		t.Errorf("notes %q, %v", got.Notes, err)
	}
}
