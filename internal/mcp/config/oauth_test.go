package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A pasted entry's "oauth" object (Claude Code's shape) is a client
// registered beforehand; what cannot be right is refused with one line.
func TestOAuth_PastedClient(t *testing.T) {
	cases := []struct {
		name, in string
		want     *OAuthClient
		err      string
	}{
		{"claude code", `{"mcpServers":{"s":{"type":"http","url":"https://x.example/mcp","oauth":{"clientId":"abc","clientSecret":"${S_SECRET}","callbackPort":8080,"scopes":["read","write"]}}}}`,
			&OAuthClient{ClientID: "abc", ClientSecret: "${S_SECRET}", CallbackPort: 8080, Scopes: []string{"read", "write"}}, ""},
		{"codex toml", "[mcp_servers.s]\nurl = \"https://x.example/mcp\"\n[mcp_servers.s.oauth]\nclient_id = \"abc\"\nscopes = \"read write\"\n",
			&OAuthClient{ClientID: "abc", Scopes: []string{"read", "write"}}, ""},
		{"literal secret", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":{"clientId":"abc","clientSecret":"s3cr$${t"}}}}`,
			&OAuthClient{ClientID: "abc", ClientSecret: "s3cr$${t"}, ""},
		{"no client id", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":{"clientSecret":"x"}}}}`, nil, "oauth.clientId is empty"},
		{"a port that is not one", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":{"clientId":"a","callbackPort":70000}}}}`, nil, "is not a port"},
		{"a fractional port", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":{"clientId":"a","callbackPort":80.5}}}}`, nil, "is not a port"},
		{"a control character", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":{"clientId":"a\u001b[31m"}}}}`, nil, "printable text"},
		{"a secret half reference", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":{"clientId":"a","clientSecret":"pre${X}"}}}}`, nil, "one reference alone"},
		{"on a command", `{"mcpServers":{"s":{"command":"srv","oauth":{"clientId":"a"}}}}`, nil, "oauth is for a server tai connects to by url"},
		{"not an object", `{"mcpServers":{"s":{"url":"https://x.example/mcp","oauth":"abc"}}}`, nil, "oauth"},
	}
	for _, tc := range cases {
		pasted(t, tc.name, tc.in, tc.err, func(e Entry) string { return cmp.Diff(tc.want, e.OAuth) })
	}
}

// A client secret is the secret itself or one reference, resolved at
// login from the environment or the vault; an unresolved one says where.
func TestOAuth_ExpandSecret(t *testing.T) {
	src := Sources{Env: func(n string) (string, bool) { return map[string]string{"S": "from-env"}[n], n == "S" },
		Secret: func(n string) (string, bool, error) { return "from-vault", n == "vaulted", nil }}
	for in, want := range map[string]string{"${S}": "from-env", "${env:S}": "from-env", "${input:vaulted}": "from-vault",
		"plain": "plain", "a$${b": "a${b"} {
		got, err := ExpandSecret(in, src)
		if err != nil || got != want {
			t.Errorf("%s: %q %v", in, got, err)
		}
	}
	if _, err := ExpandSecret("${NOPE}", src); err == nil || !strings.Contains(err.Error(), "tai secret set NOPE") {
		t.Errorf("unresolved: %v", err)
	}
}

// A pasted entry's "sandbox" narrows or widens a server's confinement;
// hosts are names or addresses with an optional port, lower-cased, and
// anything else is refused with one line.
func TestSandbox_Pasted(t *testing.T) {
	no := false
	cases := []struct {
		name, in string
		want     *SandboxSpec
		err      string
	}{
		{"hosts", `{"mcpServers":{"s":{"command":"srv","sandbox":{"hosts":["API.github.com","localhost:8080","[::1]:9"]}}}}`,
			&SandboxSpec{Hosts: []string{"api.github.com", "localhost:8080", "[::1]:9"}}, ""},
		{"network off and a directory", `{"mcpServers":{"s":{"command":"srv","sandbox":{"network":false,"write":["~/notes"]}}}}`,
			&SandboxSpec{Network: &no, Write: []string{"~/notes"}}, ""},
		{"a URL for a host", `{"mcpServers":{"s":{"command":"srv","sandbox":{"hosts":["https://api.github.com/"]}}}}`, nil, "sandbox.hosts[0]: \"https://api.github.com/\" is not a host"},
		{"a control character", `{"mcpServers":{"s":{"command":"srv","sandbox":{"hosts":["a\u001b[31m"]}}}}`, nil, "is not a host"},
		{"hosts not a list", `{"mcpServers":{"s":{"command":"srv","sandbox":{"hosts":"a.example"}}}}`, nil, "sandbox.hosts"},
	}
	for _, tc := range cases {
		pasted(t, tc.name, tc.in, tc.err, func(e Entry) string { return cmp.Diff(tc.want, e.Sandbox) })
	}
}

// pasted normalizes in as the subtest name: it must fail with a line
// holding wantErr (and no escape sequence), or else succeed with diff of
// its first entry empty.
func pasted(t *testing.T, name, in, wantErr string, diff func(Entry) string) {
	t.Run(name, func(t *testing.T) {
		got, err := Normalize(in, Options{})
		if wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), wantErr) || strings.Contains(err.Error(), "\x1b") {
				t.Fatalf("err = %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if d := diff(got[0]); d != "" {
			t.Fatalf("(-want +got):\n%s", d)
		}
	})
}
