package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestNormalize_BadInput: every malformed shape gives one line saying what
// is wrong and what to do, and no entries.
func TestNormalize_BadInput(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"args not a list", `{"mcpServers":{"x":{"command":"npx","args":"-y pkg"}}}`,
			"mcpServers.x.args: want a list of strings, got a string"},
		{"number in args", `{"mcpServers":{"x":{"command":"npx","args":["--port",3000]}}}`,
			`mcpServers.x.args[1]: want a string, got the number 3000; quote it: "3000"`},
		{"env value number", `{"mcpServers":{"x":{"command":"srv","env":{"PORT":8080}}}}`,
			`mcpServers.x.env.PORT: want a string, got the number 8080; quote it: "8080"`},
		{"env value null", `{"mcpServers":{"x":{"command":"srv","env":{"TOKEN":null}}}}`,
			"mcpServers.x.env.TOKEN: want a string, got null"},
		{"env a list", `{"mcpServers":{"x":{"command":"srv","env":["A=1"]}}}`,
			"mcpServers.x.env: want an object, got a list"},
		{"env name with a space", `{"mcpServers":{"x":{"command":"srv","env":{"MY VAR":"1"}}}}`,
			`mcpServers.x.env: env name "MY VAR" is not a variable name`},
		{"command a list", `{"mcpServers":{"x":{"command":["npx","-y","pkg"]}}}`,
			"mcpServers.x.command: want a string, got a list"},
		{"command empty", `{"mcpServers":{"x":{"command":"  "}}}`,
			"mcpServers.x.command is empty: give the program that starts the server"},
		{"both command and url", `{"mcpServers":{"x":{"command":"npx","url":"https://a.example/mcp"}}}`,
			"mcpServers.x: has both command and url: keep command for a server tai starts, or url for one it connects to"},
		{"neither", `{"mcpServers":{"x":{"args":["a"]}}}`,
			"mcpServers.x: has neither command nor url: give the program to start or the server's address"},
		{"bare entry, neither", `{"type":"stdio","args":["a"]}`,
			"server: has neither command nor url: give the program to start or the server's address"},
		{"server not an object", `{"mcpServers":{"x":"npx pkg"}}`,
			"mcpServers.x: want an object, got a string"},
		{"wrapper not an object", `{"mcpServers":[{"command":"npx"}]}`,
			"mcpServers: want an object, got a list"},
		{"empty name", `{"mcpServers":{"":{"command":"npx"}}}`,
			`mcpServers[""]: empty server name: give every server a name`},
		{"name sanitizes to nothing", `{"mcpServers":{"🚀 ✨":{"command":"npx"}}}`,
			`mcpServers["🚀 ✨"]: server name "🚀 ✨" has no letters or digits: use letters, digits, '_', '.' or '-'`},
		{"names collide", `{"mcpServers":{"a b":{"command":"x"},"a_b":{"command":"y"}}}`,
			"two servers are both named a_b: rename one"},
		{"unknown type", `{"mcpServers":{"x":{"type":"websocket","url":"wss://a.example"}}}`,
			`mcpServers.x: unknown type "websocket": use "stdio" with a command or "http" with a url`},
		{"stdio with url", `{"mcpServers":{"x":{"type":"stdio","url":"https://a.example/mcp"}}}`,
			"mcpServers.x: type stdio needs a command, but the entry has a url"},
		{"http with command", `{"mcpServers":{"x":{"type":"http","command":"npx"}}}`,
			`mcpServers.x: type "http" needs a url, but the entry has a command`},
		{"url not http", `{"mcpServers":{"x":{"url":"ftp://files.example/mcp"}}}`,
			`mcpServers.x: url "ftp://files.example/mcp" is not an http or https address`},
		{"url and httpUrl disagree", `{"mcpServers":{"x":{"url":"https://a.example/sse","httpUrl":"https://a.example/mcp"}}}`,
			"mcpServers.x: httpUrl and url disagree: keep one"},
		{"header value with a line break", `{"mcpServers":{"x":{"url":"https://a.example/mcp","headers":{"X-A":"1\r\nX-B: 2"}}}}`,
			"mcpServers.x.headers: header X-A: value holds a line break or NUL"},
		{"bad header name", `{"mcpServers":{"x":{"url":"https://a.example/mcp","headers":{"X A":"1"}}}}`,
			`mcpServers.x.headers: header name "X A" is not a valid HTTP header name`},
		{"NUL in an argument", `{"mcpServers":{"x":{"command":"srv","args":["a\u0000b"]}}}`,
			"server x: args[0] holds a NUL byte"},
		{"enabled not a bool", `{"mcpServers":{"x":{"command":"srv","disabled":"yes"}}}`,
			"mcpServers.x.disabled: want true or false, got a string"},
		{"tools not strings", `{"mcpServers":{"x":{"command":"srv","includeTools":[1]}}}`,
			`mcpServers.x.includeTools[0]: want a string, got the number 1; quote it: "1"`},
		{"input without id", `{"inputs":[{"type":"promptString"}],"servers":{"x":{"command":"srv"}}}`,
			"inputs[0].id: want a string, got null"},
		{"empty object", `{}`,
			"empty JSON object: paste a config with mcpServers or servers, or one server with command or url"},
		{"Crush command substitution", `{"mcp":{"x":{"type":"http","url":"https://a.example/mcp","headers":{"K":"$(cat ~/.key)"}}}}`,
			`mcp.x.headers.K: "$(cat ~/.key)" runs a shell command, which tai does not do: write ${NAME} to read a variable from the environment or the vault`},
		{"empty wrapper", `{"mcpServers":{}}`,
			"mcpServers is empty: it holds no servers"},
		{"unknown wrapper", `{"mcp_servers":{"x":{"command":"npx"}},"theme":"dark"}`,
			`unknown config shape: found "mcp_servers", "theme"; expected "mcpServers", "servers", or one server with "command" or "url"`},
		{"JSON syntax error", "{\n  \"mcpServers\": {\n    \"x\" {\"command\": \"npx\"}\n  }\n}",
			"invalid JSON at line 3, column 9: invalid character '{' after object key"},
		{"JSON cut short", "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"npx\"",
			"invalid JSON at line 3, column 27: the text ends inside a value; is a closing brace missing?"},
		{"text after the object", `{"mcpServers":{"x":{"command":"npx"}}} {"more":1}`,
			"invalid JSON at line 1, column 40: text after the end of the object; paste one JSON object"},
		{"fragment syntax error", "\"x\": {\"command\" \"npx\"}",
			"invalid JSON at line 1, column 17: invalid character '\"' after object key"},
		{"JSON list", `[{"command":"npx"}]`,
			"a JSON list is not a config: paste an object with mcpServers or servers"},
		{"TOML syntax error", "[mcp_servers.docs]\ncommand = \"docs-server\"\nargs = [\"--port\", 4000\n",
			"invalid TOML at line 3: expected a comma (',') or array terminator (']'), but got end of file"},
		{"TOML without servers", "model = \"o3\"\n[profiles.o3]\nmodel = \"o3\"\n",
			`no [mcp_servers.NAME] table in the TOML (found "model", "profiles"): paste the [mcp_servers.…] part of the config`},
		{"TOML servers not a table", "mcp_servers = \"docs\"\n",
			"mcp_servers: want a table of servers ([mcp_servers.NAME]), got a string"},
		{"TOML env_vars not names", "[mcp_servers.x]\ncommand = \"srv\"\nenv_vars = [\"A B\"]\n",
			`mcp_servers.x.env_vars[0]: "A B" is not a variable name`},
		{"TOML env_http_headers not a name", "[mcp_servers.x]\nurl = \"https://a.example/mcp\"\nenv_http_headers = { \"X-Key\" = \"${KEY}\" }\n",
			`mcp_servers.x.env_http_headers.X-Key: "${KEY}" is not a variable name`},
		{"TOML bearer and Authorization", "[mcp_servers.x]\nurl = \"https://a.example/mcp\"\nbearer_token_env_var = \"TOKEN\"\nhttp_headers = { \"authorization\" = \"Bearer abc\" }\n",
			"mcp_servers.x: header Authorization is given twice: keep one"},
		{"TOML number in args", "[mcp_servers.docs]\ncommand = \"docs-server\"\nargs = [\"--port\", 4000]\n",
			`mcp_servers.docs.args[1]: want a string, got the number 4000; quote it: "4000"`},
		{"plain http to a remote host", "http://mcp.example.com/mcp",
			"plain http is accepted only for localhost: use https://mcp.example.com/mcp"},
		{"URL of another scheme", "ftp://mcp.example.com/mcp",
			`url "ftp://mcp.example.com/mcp" is not an http or https address`},
		{"unknown stored name", "filesystem",
			"no stored server is named filesystem: paste a config, a URL or a GitHub link (tai mcp list shows the stored ones)"},
		{"a command line", "npx -y @modelcontextprotocol/server-everything",
			"this looks like a command line: register it with tai mcp add NAME -- npx"},
		{"prose", "please add the filesystem server",
			"unrecognised input: paste a JSON or TOML config, an https URL, a GitHub link or a stored server name; for a command use tai mcp add NAME -- CMD ARGS"},
		{"whitespace only", " \n\t ",
			"empty input: paste a JSON or TOML config, a URL, or a stored server name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.input, Options{})
			if err == nil {
				t.Fatalf("no error; entries %+v", got)
			}
			if err.Error() != tt.want {
				t.Errorf("err = %s\nwant  %s", err, tt.want)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error spans lines: %q", err)
			}
			if got != nil {
				t.Errorf("entries returned with the error: %+v", got)
			}
		})
	}
}

// TestNormalize_TooLarge: a 10 MB paste is refused by its length alone.
func TestNormalize_TooLarge(t *testing.T) {
	big := `{"mcpServers":{"x":{"command":"npx","args":["` + strings.Repeat("a", 10<<20) + `"]}}}`
	got, err := Normalize(big, Options{})
	if !errors.Is(err, ErrTooLarge) || got != nil {
		t.Fatalf("got %d entries, err %v; want ErrTooLarge", len(got), err)
	}
	if want := fmt.Sprintf("paste too large: %d bytes, the limit is 1048576 (1 MiB); paste one config, not a whole file of other settings", len(big)); err.Error() != want {
		t.Errorf("err = %s\nwant  %s", err, want)
	}
	if _, err := Normalize(strings.Repeat(" ", MaxInput-2)+"{}", Options{}); errors.Is(err, ErrTooLarge) {
		t.Errorf("a paste of exactly MaxInput bytes was refused as too large")
	}
}

// A name given with a paste of several servers selects among them.
func TestNormalize_NameForSeveralServers(t *testing.T) {
	_, err := Normalize(readTestdata(t, "vscode.json"), Options{Name: "mine"})
	want := "the config holds 3 servers (Perplexity, fetch, my-remote-server) and none is named mine: give one of those names, several separated by commas, or none for all"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant  %s", err, want)
	}
	got, err := Normalize(readTestdata(t, "vscode.json"), Options{Name: "my-remote-server, fetch"})
	if err != nil || len(got) != 2 || got[0].Name != "fetch" || got[1].Name != "my-remote-server" {
		t.Fatalf("selecting two: %v %+v", err, got)
	}
}
