package bridge

import (
	"strings"
	"testing"

	"tai/internal/mcp/config"
)

// The consent screen names the exact launch, and so does its title alone,
// which is all an approval given in advance (--yes, --auto) prints; vault
// values appear as [secret:NAME] and control characters never pass.
func TestDescribe_ShowsTheWholeLaunchWithoutSecrets(t *testing.T) {
	const token = "ghp_s3cr3tvalue"
	x := config.Expanded{
		Entry: config.Entry{Name: "gh", Transport: config.Stdio, Command: "npx",
			Args: []string{"-y", "@acme/server", "--token", token, "evil\x1b[2Jname"},
			Env:  map[string]string{"GITHUB_TOKEN": token}, Source: "github:acme/server"},
		Secrets: map[string]string{"GITHUB_TOKEN": token},
	}
	c := Describe(x, "register")
	if want := "MCP server gh (register): run npx -y @acme/server --token [secret:GITHUB_TOKEN] "; !strings.HasPrefix(c.Title, want) {
		t.Errorf("title = %q, want it to start %q", c.Title, want)
	}
	if !strings.Contains(c.Detail, "will run: npx -y @acme/server --token [secret:GITHUB_TOKEN]") || !strings.Contains(c.Detail, "source: github:acme/server") {
		t.Errorf("detail lacks the launch or the source:\n%s", c.Detail)
	}
	for what, s := range map[string]string{"title": c.Title, "detail": c.Detail} {
		if strings.Contains(s, token) || strings.ContainsRune(s, '\x1b') {
			t.Errorf("the %s shows a secret or a control character: %q", what, s)
		}
	}
	x.Entry = config.Entry{Name: "remote", Transport: config.HTTP, URL: "https://mcp.example.com/mcp?key=" + token,
		Headers: map[string]string{"Authorization": "Bearer " + token}}
	c = Describe(x, "register")
	if c.Title != "MCP server remote (register): connect to https://mcp.example.com/mcp?key=[secret:GITHUB_TOKEN]" || strings.Contains(c.Detail, token) {
		t.Errorf("http consent: %q\n%s", c.Title, c.Detail)
	}
}
