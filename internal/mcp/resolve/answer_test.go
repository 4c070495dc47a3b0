package resolve

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/config"
)

func TestParseAnswer_Entries(t *testing.T) {
	tests := []struct {
		answer string
		want   config.Entry
	}{
		{"```json\n{\"name\": \"toolbox\", \"command\": \"npx\", \"args\": [\"-y\", \"toolbox-mcp\"], \"env\": {\"K\": \"${K}\"}}\n```",
			config.Entry{Name: "toolbox", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "toolbox-mcp"}, Env: map[string]string{"K": "${K}"}, Source: config.SourceJSON}},
		{"\n  ```\n{\"url\": \"https://toolbox.example/mcp\"}\n```  \n",
			config.Entry{Name: "toolbox", Transport: config.HTTP, URL: "https://toolbox.example/mcp", Source: config.SourceJSON,
				Notes: []string{"name toolbox derived from the host; choose another with --name"}}},
	}
	for _, tt := range tests {
		got, err := ParseAnswer(tt.answer)
		if err != nil {
			t.Errorf("%q: %v", tt.answer, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.answer, diff)
		}
	}
}

func TestParseAnswer_Refusals(t *testing.T) {
	block := "```json\n{\"command\": \"npx\", \"args\": [\"-y\", \"x-mcp\"]}\n```"
	tests := []struct{ answer, want string }{
		{"Sure! Here it is:\n" + block, "it has text outside its fenced block"},
		{block + "\nLet me know if you need more.", "it has text outside its fenced block"},
		{"You can run it with npx -y x-mcp.", "it has no fenced JSON block"},
		{block + "\n" + block, "it has 2 fenced blocks, not one"},
		{"```bash\nnpx -y x-mcp\n```", "it fenced a bash block, not JSON"},
		{"```json\n{\"command\": \"npx\"", "its fenced block is not closed"},
		{"```json\n[1, 2]\n```", "its fenced block is not one JSON object"},
		{"```json\n{\"url\": \"https://a/mcp\"} {}\n```", "its fenced block holds more than one JSON value"},
		{"```json\n{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\n```", "its entry has keys no server entry has (mcpServers)"},
		{"```json\n{\"command\": \"x\", \"url\": \"https://a/mcp\"}\n```", "its entry needs exactly one of command and url"},
		{"```json\n{\"name\": \"n\", \"args\": [\"a\"]}\n```", "its entry needs exactly one of command and url"},
		{"```json\n{\"command\": \"x\", \"args\": [1]}\n```", "its entry is not valid: server.args[0]: want a string, got the number 1; quote it: \"1\""},
	}
	for _, tt := range tests {
		_, err := ParseAnswer(tt.answer)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q:\n got %v\nwant %s", tt.answer, err, tt.want)
		}
	}
}

func TestParseAnswer_Error(t *testing.T) {
	_, err := ParseAnswer("```json\n{\"error\": \"no published package\", \"evidence\": [\"README.md: go build\", \"no package.json\"]}\n```")
	var ae *AgentError
	if !errors.As(err, &ae) || ae.Reason != "no published package" || ae.Evidence != `["README.md: go build","no package.json"]` {
		t.Fatalf("err = %#v", err)
	}
}
