package resolve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFromReadme: run blocks as READMEs write them.
func TestFromReadme(t *testing.T) {
	tests := []struct {
		name, md string
		argv     string // command and args of the entry, "" for none
		env      map[string]string
		saw      string
	}{
		{"prompt and continuation", "```console\n$ npx -y \\\n    @upstash/context7-mcp@latest --transport stdio\n```\n",
			"npx -y @upstash/context7-mcp@latest --transport stdio", nil, ""},
		{"env assignments are samples", "```sh\nGITHUB_TOKEN=ghp_xxx LOG_LEVEL=debug npx -y acme-mcp\n```\n",
			"npx -y acme-mcp", map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "${LOG_LEVEL:-debug}"}, ""},
		{"a client's add line", "```bash\nclaude mcp add acme --scope user -e API_KEY='sk-123' -- npx -y \"@acme/mcp\"   # then restart\n```\n",
			"npx -y @acme/mcp", map[string]string{"API_KEY": "${API_KEY}"}, ""},
		{"a build step before it", "```bash\nnpm install && npx acme-mcp\n```\n", "npx acme-mcp", nil, ""},
		{"sudo is not a run line", "```bash\nsudo npx acme-mcp\n```\n", "", nil, "no npx or uvx run block for this server"},
		{"uvx with --from", "```\nuvx --from git+https://github.com/acme/x acme-mcp-x --port 3\n```\n", "uvx --from git+https://github.com/acme/x acme-mcp-x --port 3", nil, ""},
		{"windows npx.cmd in a JSON config", "```jsonc\n// claude_desktop_config.json\n{\"mcpServers\":{\"acme\":{\"command\":\"npx.cmd\",\"args\":[\"-y\",\"acme-mcp\"],\"env\":{\"ACME_TOKEN\":\"<token>\"}}}}\n```\n",
			"npx -y acme-mcp", map[string]string{"ACME_TOKEN": "${ACME_TOKEN}"}, ""},
		{"one server shown three ways", "```json\n{\"mcpServers\":{\"a\":{\"command\":\"npx\",\"args\":[\"-y\",\"acme-mcp@1\"]}}}\n```\n```\nnpx acme-mcp\n```\n```powershell\nnpx -y `\n  acme-mcp@latest\n```\n",
			"npx -y acme-mcp@1", nil, ""},
		{"tools around a server are not servers", "```\nnpx @modelcontextprotocol/inspector\nnpx tsc\nnpx @smithery/cli install acme\n```\n", "", nil, "no npx or uvx run block for this server"},
		{"run blocks outside fences do not count", "Run `npx -y acme-mcp` to start.\n", "", nil, "no npx or uvx run block for this server"},
		{"an unclosed quote", "```\nnpx -y 'acme-mcp\n```\n", "", nil, "no npx or uvx run block for this server"},
		{"a four-backtick fence holds a three-backtick one", "````md\n```\nnpx -y other-mcp\n```\n````\n```\nnpx -y acme-mcp\n```\n", "npx -y acme-mcp", nil, ""},
		{"two servers", "```\nnpx -y acme-a-mcp\n```\n```\nuvx acme-b-mcp\n```\n", "", nil,
			"run blocks for 2 different servers (acme-a-mcp, acme-b-mcp): link the folder of the one you want"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, saw := fromReadme([]byte(tt.md), &hints{})
			if tt.argv == "" {
				if got != nil || saw != tt.saw {
					t.Fatalf("got %+v, %q; want nothing, %q", got, saw, tt.saw)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d entries: %s", len(got), saw)
			}
			if a := argvOf(got[0]); a != tt.argv {
				t.Errorf("argv %q, want %q", a, tt.argv)
			}
			if diff := cmp.Diff(tt.env, got[0].Env); diff != "" {
				t.Errorf("env (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(saw, "run block ") {
				t.Errorf("saw %q", saw)
			}
		})
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`a "b c" 'd e' f\ g`, []string{"a", "b c", "d e", "f g"}},
		{`x="a \"q\" $b" y # comment`, []string{`x=a "q" $b`, "y"}},
		{`a&&b|c;d 2>&1 >/dev/null`, []string{"a", "&&", "b", "|", "c", ";", "d", "2", ">&", "1", ">", "/dev/null"}},
		{`a#b`, []string{"a#b"}},
	}
	for _, tt := range tests {
		got, ok := words(tt.in)
		if !ok || !cmp.Equal(tt.want, got) {
			t.Errorf("words(%s) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	if _, ok := words(`a "b`); ok {
		t.Error("an unclosed double quote was accepted")
	}
}
