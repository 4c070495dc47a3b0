package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/config"
)

// TestFromServerJSON: server.json as the MCP registry writes it (the
// 2025-12-11 schema, and the snake_case of 2025-07-09) becomes one entry.
func TestFromServerJSON(t *testing.T) {
	tests := []struct {
		name, doc string
		want      config.Entry
		saw       string
	}{
		{"pypi with a required secret", `{"name":"io.github.example/weather","packages":[{"registryType":"pypi","identifier":"weather-mcp-server","version":"0.5.0","runtimeHint":"uvx","transport":{"type":"stdio"},
			"environmentVariables":[{"name":"WEATHER_API_KEY","isRequired":true,"isSecret":true},{"name":"WEATHER_UNITS","default":"celsius"},{"name":"OPTIONAL_THING"}]}]}`,
			config.Entry{Name: "weather", Transport: config.Stdio, Command: "uvx", Args: []string{"weather-mcp-server@0.5.0"},
				Env: map[string]string{"WEATHER_API_KEY": "${WEATHER_API_KEY}", "WEATHER_UNITS": "celsius"}},
			"pypi package weather-mcp-server over stdio"},
		{"oci passes env into the container", `{"packages":[{"registryType":"oci","identifier":"docker.io/mcp/filesystem","version":"1.0.2",
			"runtimeArguments":[{"type":"named","name":"--mount","value":"type=bind,src={source_path},dst={target_path}","isRequired":true,
				"variables":{"source_path":{"isRequired":true},"target_path":{"default":"/project"}}}],
			"packageArguments":[{"type":"positional","valueHint":"target_dir","value":"/project"}],
			"environmentVariables":[{"name":"LOG_LEVEL","default":"info"}],"transport":{"type":"stdio"}}]}`,
			config.Entry{Name: "filesystem", Transport: config.Stdio, Command: "docker",
				Args: []string{"run", "-i", "--rm", "--mount", "type=bind,src=${SOURCE_PATH},dst=/project", "-e", "LOG_LEVEL", "docker.io/mcp/filesystem:1.0.2", "/project"},
				Env:  map[string]string{"LOG_LEVEL": "info"}},
			"oci package docker.io/mcp/filesystem over stdio"},
		{"a package serving HTTP locally is passed over for the remote", `{"packages":[{"registryType":"npm","identifier":"@acme/hybrid","transport":{"type":"streamable-http","url":"http://localhost:{port}/mcp"}},
			{"registryType":"nuget","identifier":"Acme.Server","version":"1.0.0"}],
			"remotes":[{"type":"sse","url":"https://acme.example/sse"},{"type":"streamable-http","url":"https://{host}/mcp",
				"headers":[{"name":"Authorization","value":"Bearer {token}","isRequired":true,"isSecret":true,"variables":{"token":{"isSecret":true}}},{"name":"X-Region","default":"eu"},{"name":"X-Opt"}],
				"variables":{"host":{"default":"mcp.acme.example"}}}]}`,
			config.Entry{Name: "acme", Transport: config.HTTP, URL: "https://mcp.acme.example/mcp",
				Headers: map[string]string{"Authorization": "Bearer ${TOKEN}", "X-Region": "eu"}},
			"remote streamable-http https://mcp.acme.example/mcp"},
		{"the 2025-07-09 snake_case", `{"name":"io.modelcontextprotocol/brave-search","version_detail":{"version":"1.0.2"},"packages":[{"registry_type":"npm","registry_base_url":"https://registry.npmjs.org",
			"identifier":"@modelcontextprotocol/server-brave-search","version":"1.0.2","environment_variables":[{"name":"BRAVE_API_KEY","is_required":true,"is_secret":true}]}]}`,
			config.Entry{Name: "brave-search", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-brave-search@1.0.2"},
				Env: map[string]string{"BRAVE_API_KEY": "${BRAVE_API_KEY}"}},
			"npm package @modelcontextprotocol/server-brave-search over stdio"},
		{"a literal ${ stays literal", `{"packages":[{"registryType":"npm","identifier":"x-mcp","version":"latest","packageArguments":[{"type":"positional","value":"${HOME}/{dir}"}]}]}`,
			config.Entry{Name: "x", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "x-mcp", "$${HOME}/${DIR}"}},
			"npm package x-mcp over stdio"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, saw := fromServerJSON([]byte(tt.doc), &hints{})
			if len(got) != 1 {
				t.Fatalf("no entry: %s", saw)
			}
			got[0].Notes, got[0].Source = nil, ""
			if diff := cmp.Diff(tt.want, got[0]); diff != "" {
				t.Errorf("entry (-want +got):\n%s", diff)
			}
			if saw != tt.saw {
				t.Errorf("saw %q, want %q", saw, tt.saw)
			}
		})
	}
}

func TestFromServerJSON_NothingToStart(t *testing.T) {
	tests := []struct{ doc, saw string }{
		{`{"name":"x"}`, "no packages or remotes"},
		{`{"packages":[{"registryType":"mcpb","identifier":"https://github.com/o/r/releases/download/v1/x.mcpb"}]}`,
			"mcpb package https://github.com/o/r/releases/download/v1/x.mcpb (tai starts npm, pypi and oci packages)"},
		{`{"remotes":[{"type":"streamable-http","url":"ftp://x"}]}`, "remote: server: url \"ftp://x\" is not an http or https address"},
		{`[1]`, "not JSON: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	}
	for _, tt := range tests {
		got, saw := fromServerJSON([]byte(tt.doc), &hints{})
		if got != nil || saw != tt.saw {
			t.Errorf("%s: got %v, %q; want %q", tt.doc, got, saw, tt.saw)
		}
	}
}
