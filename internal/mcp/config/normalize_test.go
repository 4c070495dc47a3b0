package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

const (
	envRewrite = "${env:NAME} references rewritten as ${NAME}"
)

// TestNormalize_DocumentedConfigs runs every config in testdata/, each a
// copy of an example from its client's documentation, and compares the
// exact entries.
func TestNormalize_DocumentedConfigs(t *testing.T) {
	tests := []struct {
		file string
		want []Entry
	}{
		{"claude_desktop.json", []Entry{{
			Name: "filesystem", Transport: Stdio, Command: "npx",
			Args:   []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop", "/Users/username/Downloads"},
			Source: SourceJSON,
		}}},
		{"claude_desktop_weather.json", []Entry{{
			Name: "weather", Transport: Stdio, Command: "uv",
			Args:   []string{"--directory", "/ABSOLUTE/PATH/TO/PARENT/FOLDER/weather", "run", "weather.py"},
			Source: SourceJSON,
		}}},
		{"claude_code.json", []Entry{{
			Name: "api-server", Transport: HTTP,
			URL:     "${API_BASE_URL:-https://api.example.com}/mcp",
			Headers: map[string]string{"Authorization": "Bearer ${API_KEY}"},
			Source:  SourceJSON,
		}}},
		{"claude_code_project.json", []Entry{{
			Name: "shared-server", Transport: Stdio, Command: "/path/to/server", Source: SourceJSON,
		}}},
		{"claude_code_add_json_http.json", []Entry{{
			Name: "weather", Transport: HTTP, URL: "https://api.weather.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer token"},
			Source:  SourceJSON,
			Notes:   []string{"name weather derived from the host; choose another with --name"},
		}}},
		{"claude_code_add_json_stdio.json", []Entry{{
			Name: "weather-cli", Transport: Stdio, Command: "/path/to/weather-cli",
			Args:   []string{"--api-key", "abc123"},
			Env:    map[string]string{"CACHE_DIR": "/tmp"},
			Source: SourceJSON,
			Notes:  []string{"name weather-cli derived from the command; choose another with --name"},
		}}},
		{"cursor.json", []Entry{{
			Name: "server-name", Transport: Stdio, Command: "npx",
			Args:   []string{"-y", "mcp-server"},
			Env:    map[string]string{"API_KEY": "value"},
			Source: SourceJSON,
		}}},
		{"cursor_interpolation.json", []Entry{{
			Name: "local-server", Transport: Stdio, Command: "python",
			Args:   []string{"${workspaceFolder}/tools/mcp_server.py"},
			Env:    map[string]string{"API_KEY": "${API_KEY}"},
			Source: SourceJSON,
			Notes:  []string{envRewrite},
		}}},
		{"cursor_remote.json", []Entry{{
			Name: "remote-server", Transport: HTTP, URL: "https://api.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer ${MY_SERVICE_TOKEN}"},
			Source:  SourceJSON,
			Notes:   []string{envRewrite},
		}}},
		{"vscode.json", []Entry{
			{
				Name: "Perplexity", Transport: Stdio, Command: "docker",
				Args:   []string{"run", "-i", "--rm", "-e", "PERPLEXITY_API_KEY", "mcp/perplexity-ask"},
				Env:    map[string]string{"PERPLEXITY_API_KEY": "${input:perplexity-key}"},
				Source: SourceJSON,
				Notes:  []string{`${input:perplexity-key} ("Perplexity API Key") is read from the vault secret perplexity-key: store it with tai secret set perplexity-key`},
			},
			{Name: "fetch", Transport: Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}, Source: SourceJSON},
			{
				Name: "my-remote-server", Transport: HTTP, URL: "http://api.contoso.com/sse",
				Headers: map[string]string{"VERSION": "1.2"},
				Source:  SourceJSON,
				Notes: []string{
					`type "sse" is the legacy HTTP+SSE transport, which tai does not implement: tai speaks Streamable HTTP to this url`,
					"plain http to a remote host: headers and tokens travel unencrypted",
				},
			},
		}},
		{"vscode_inputs.json", []Entry{{
			Name: "perplexity", Transport: Stdio, Command: "npx",
			Args:   []string{"-y", "server-perplexity-ask"},
			Env:    map[string]string{"PERPLEXITY_API_KEY": "${input:perplexity-key}"},
			Source: SourceJSON,
			Notes:  []string{`${input:perplexity-key} ("Perplexity API Key") is read from the vault secret perplexity-key: store it with tai secret set perplexity-key`},
		}}},
		{"vscode_remote.json", []Entry{{
			Name: "context7", Transport: HTTP, URL: "https://mcp.context7.com/mcp", Source: SourceJSON,
		}}},
		{"vscode_settings.json", []Entry{{
			Name: "my-mcp-server", Transport: Stdio, Command: "my-command", Source: SourceJSON,
		}}},
		{"vscode_add_mcp.json", []Entry{{
			Name: "my-server", Transport: Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}, Source: SourceJSON,
		}}},
		{"codex_stdio.toml", []Entry{{
			Name: "server_name", Transport: Stdio, Command: "npx",
			Args:   []string{"-y", "mcp-server"},
			Env:    map[string]string{"API_KEY": "value", "API_KEY2": "${API_KEY2}"},
			Cwd:    "/Users/<user>/code/my-server",
			Source: SourceTOML,
		}}},
		{"codex_http.toml", []Entry{{
			Name: "figma", Transport: HTTP, URL: "https://mcp.figma.com/mcp",
			Headers: map[string]string{
				"Authorization": "Bearer ${ENV_VAR}",
				"HEADER_NAME":   "${ENV_VAR:-HEADER_VALUE}",
			},
			Source: SourceTOML,
		}}},
		// Crush's crush.json, as its README gives it: "mcp" holds the
		// servers, disabled_tools is a deny list, and strings expand $NAME
		// and $(echo $NAME).
		{"crush.json", []Entry{{
			Name: "filesystem", Transport: Stdio, Command: "node",
			Args: []string{"/path/to/mcp-server.js"}, Env: map[string]string{"NODE_ENV": "production"},
			Deny: []string{"some-tool-name"}, Enabled: ptr(true), Source: SourceJSON,
			CallTimeout: 120 * time.Second,
			Notes:       []string{secondsTimeout(120)},
		}, {
			Name: "github", Transport: HTTP, URL: "https://api.githubcopilot.com/mcp/",
			Headers: map[string]string{"Authorization": "Bearer ${GH_PAT}"},
			Deny:    []string{"create_issue", "create_pull_request"}, Enabled: ptr(true), Source: SourceJSON,
			CallTimeout: 120 * time.Second,
			Notes: []string{secondsTimeout(120),
				"headers.Authorization: $GH_PAT read as ${GH_PAT} (Crush expands $NAME in its strings)"},
		}, {
			Name: "streaming-service", Transport: HTTP, URL: "https://example.com/mcp/sse",
			Headers: map[string]string{"API-Key": "${API_KEY}"}, Enabled: ptr(true), Source: SourceJSON,
			CallTimeout: 120 * time.Second,
			Notes: []string{secondsTimeout(120),
				`type "sse" is the legacy HTTP+SSE transport, which tai does not implement: tai speaks Streamable HTTP to this url`,
				"headers.API-Key: $(echo $API_KEY) read as ${API_KEY}"},
		}}},
		{"codex_options.toml", []Entry{{
			Name: "docs", Transport: Stdio, Command: "docs-server",
			Args:    []string{"--port", "4000"},
			Allow:   []string{"search", "summarize"},
			Deny:    []string{"search"},
			Enabled: ptr(false),
			// startup_timeout_sec and tool_timeout_sec are the server's own limits.
			StartupTimeout: 20 * time.Second,
			CallTimeout:    30 * time.Second,
			Source:         SourceTOML,
			Notes: []string{
				"startup_timeout_sec: each start may take up to 20s, in place of MCP_CONNECT_TIMEOUT (the first start at registration keeps tai's own allowance when longer)",
				"tool_timeout_sec: each request may wait up to 30s for an answer or progress, in place of MCP_CALL_TIMEOUT",
			},
		}}},
		{"gemini_python.json", []Entry{{
			Name: "pythonTools", Transport: Stdio, Command: "python",
			Args: []string{"-m", "my_mcp_server", "--port", "8080"},
			Cwd:  "./mcp-servers/python",
			Env: map[string]string{
				"DATABASE_URL": "${DB_CONNECTION_STRING}",
				"API_KEY":      "${EXTERNAL_API_KEY}",
			},
			Source:      SourceJSON,
			CallTimeout: 15 * time.Second,
			Notes: []string{
				"env DATABASE_URL: $DB_CONNECTION_STRING read as ${DB_CONNECTION_STRING}",
				msTimeout(15000),
			},
		}}},
		{"gemini_docker.json", []Entry{{
			Name: "dockerizedServer", Transport: Stdio, Command: "docker",
			Args:   []string{"run", "-i", "--rm", "-e", "API_KEY", "-v", "${PWD}:/workspace", "my-mcp-server:latest"},
			Env:    map[string]string{"API_KEY": "${EXTERNAL_SERVICE_TOKEN}"},
			Source: SourceJSON,
			Notes:  []string{"env API_KEY: $EXTERNAL_SERVICE_TOKEN read as ${EXTERNAL_SERVICE_TOKEN}"},
		}}},
		{"gemini_http.json", []Entry{{
			Name: "httpServerWithAuth", Transport: HTTP, URL: "http://localhost:3000/mcp",
			Headers: map[string]string{
				"Authorization":   "Bearer your-api-token",
				"X-Custom-Header": "custom-value",
				"Content-Type":    "application/json",
			},
			Source:      SourceJSON,
			CallTimeout: 5 * time.Second,
			Notes:       []string{msTimeout(5000)},
		}}},
		// Gemini CLI expands $NAME anywhere in its strings; a header sent
		// as "Bearer $TAI_MCP_KEY" would fail with a misleading 401.
		{"gemini_http_env.json", []Entry{{
			Name: "taiServed", Transport: HTTP, URL: "http://127.0.0.1:8765/mcp",
			Headers: map[string]string{
				"Authorization": "Bearer ${TAI_MCP_KEY}",
				"X-Workspace":   "${WORKSPACE}-${USER}",
			},
			Source:      SourceJSON,
			CallTimeout: 30 * time.Second,
			Notes: []string{
				msTimeout(30000),
				"headers.Authorization: $TAI_MCP_KEY read as ${TAI_MCP_KEY} (Gemini CLI expands $NAME in its strings)",
				"headers.X-Workspace: $USER read as ${USER} (Gemini CLI expands $NAME in its strings)",
			},
		}}},
		{"gemini_filtered.json", []Entry{{
			Name: "filteredServer", Transport: Stdio, Command: "python",
			Args:        []string{"-m", "my_mcp_server"},
			Allow:       []string{"safe_tool", "file_reader", "data_processor"},
			Source:      SourceJSON,
			CallTimeout: 30 * time.Second,
			Notes:       []string{msTimeout(30000)},
		}}},
		{"gemini_node_trust.json", []Entry{{
			Name: "nodeServer", Transport: Stdio, Command: "node",
			Args:   []string{"dist/server.js", "--verbose"},
			Cwd:    "./mcp-servers/node",
			Source: SourceJSON,
			Notes:  []string{"trust ignored: tai asks before each call until you grant the tool or the server"},
		}}},
		{"windsurf.json", []Entry{{
			Name: "github", Transport: Stdio, Command: "npx",
			Args:   []string{"-y", "@modelcontextprotocol/server-github"},
			Env:    map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "<YOUR_PERSONAL_ACCESS_TOKEN>"},
			Source: SourceJSON,
			Notes:  []string{`env.GITHUB_PERSONAL_ACCESS_TOKEN is "<YOUR_PERSONAL_ACCESS_TOKEN>", a placeholder: replace it, or write ${VAR} to read it from the environment or the vault`},
		}}},
		{"windsurf_interpolation.json", []Entry{{
			Name: "figma", Transport: HTTP, URL: "https://your-server-url/mcp",
			Headers: map[string]string{"Authorization": "Bearer ${AUTH_TOKEN}"},
			Source:  SourceJSON,
			Notes:   []string{envRewrite},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := Normalize(readTestdata(t, tt.file), Options{})
			if err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			for _, e := range got {
				if err := e.Validate(); err != nil {
					t.Errorf("Validate(%s): %v", e.Name, err)
				}
			}
		})
	}
}

// TestNormalize_DocumentedTraps are documented snippets that cannot work as
// pasted; each must fail with a line that says why.
func TestNormalize_DocumentedTraps(t *testing.T) {
	tests := []struct{ file, want string }{
		// Codex's "# or" alternative: after [mcp_servers.server_name.env],
		// env_vars and cwd land inside the env table.
		{"codex_env_table.toml", "mcp_servers.server_name.env.env_vars: want a string, got a list"},
		// Windsurf's remote example keeps its <placeholder> host.
		{"windsurf_remote.json", `mcpServers.figma: url "https://<your-server-url>/mcp" has no valid host name: replace any placeholder with the server's address`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := Normalize(readTestdata(t, tt.file), Options{})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant %s", err, tt.want)
			}
			if got != nil {
				t.Errorf("entries returned with the error: %v", got)
			}
		})
	}
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNormalize_EveryTestdataFileIsCovered keeps the table above honest.
func TestNormalize_EveryTestdataFileIsCovered(t *testing.T) {
	src, err := os.ReadFile("normalize_test.go")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.*")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		if !strings.Contains(string(src), `"`+filepath.Base(f)+`"`) {
			t.Errorf("%s is not in a test table", f)
		}
	}
}

// Only Gemini CLI expands $NAME inside strings: the same header pasted in
// another client's shape stays literal, and an import of Gemini's file
// says so by its host even without Gemini's own keys.
func TestNormalize_DollarNameOnlyForGemini(t *testing.T) {
	const claude = `{"mcpServers":{"s":{"url":"https://x.example/mcp","headers":{"Authorization":"Bearer $TOKEN"}}}}`
	es, err := Normalize(claude, Options{})
	if err != nil || es[0].Headers["Authorization"] != "Bearer $TOKEN" {
		t.Fatalf("claude shape: %v %+v", err, es)
	}
	es, err = Normalize(claude, Options{Host: HostGemini})
	if err != nil || es[0].Headers["Authorization"] != "Bearer ${TOKEN}" {
		t.Fatalf("gemini host: %v %+v", err, es)
	}
	// $ before a non-name and inside ${…} stays as written.
	got, names := dollarVars("a$ b$1 ${X:-$Y} $$Z $A_1b")
	if got != "a$ b$1 ${X:-$Y} $$Z ${A_1b}" || len(names) != 1 {
		t.Errorf("dollarVars = %q %v", got, names)
	}
}

// Claude Code keeps `claude mcp add` servers in ~/.claude.json: the user
// scope at the top level, each project's local scope under
// projects.<path>.mcpServers, among much other state. Both are read; a
// project picks its own local scope.
func TestNormalize_ClaudeCodeStateFile(t *testing.T) {
	text := readTestdata(t, "claude_code_state.json")
	es, err := Normalize(text, Options{Project: "/home/ann/app"})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Name != "airtable" || es[1].Name != "context7" {
		t.Fatalf("entries %+v", es)
	}
	if es[0].Env["AIRTABLE_API_KEY"] != "${AIRTABLE_API_KEY}" || !slices.Contains(es[0].Notes, "Claude Code local scope of project /home/ann/app") {
		t.Errorf("local entry %+v", es[0])
	}
	es, err = Normalize(text, Options{})
	if err != nil || len(es) != 3 || es[2].Name != "sentry" || es[2].URL != "https://mcp.sentry.dev/mcp" {
		t.Fatalf("every project: %v %+v", err, es)
	}
	// Only local-scope servers, no user scope: read all the same.
	es, err = Normalize(`{"numStartups":1,"projects":{"/p":{"mcpServers":{"x":{"command":"x-server"}}}}}`, Options{})
	if err != nil || len(es) != 1 || es[0].Name != "x" {
		t.Fatalf("local only: %v %+v", err, es)
	}
}
