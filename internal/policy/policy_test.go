package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
	if p, err := Load(filepath.Join(t.TempDir(), "absent.toml")); err != nil || p.Path != "" {
		t.Fatalf("a missing file: %+v %v", p, err)
	}
	for body, want := range map[string]string{
		"forbid_yolo = maybe":                                       "does not parse",
		"forbid_everything = true":                                  "a key tai does not know (forbid_everything)",
		"[[allowed_servers]]\nargs = [\"x\"]":                       "needs a command or a url",
		"[[allowed_servers]]\ncommand = \"a\"\nurl = \"https://x\"": "needs a command or a url",
	} {
		if _, err := Load(write(t, body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v", body, err)
		}
	}
}

func TestPolicy(t *testing.T) {
	p, err := Load(write(t, `forbid_sandbox_off = true
forbid_yolo = true
denied_hosts = ["pastebin.com", "*.ngrok.io"]
[[allowed_servers]]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-memory"]
[[allowed_servers]]
url = "https://mcp.example.com/"
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckModes("yolo", "workspace-write", "flag --yolo"); err == nil || !strings.Contains(err.Error(), "forbids approving with yolo (flag --yolo)") {
		t.Errorf("yolo: %v", err)
	}
	if err := p.CheckModes("auto", "off", "flag --sandbox"); err == nil || !strings.Contains(err.Error(), "forbids --sandbox off") {
		t.Errorf("sandbox off: %v", err)
	}
	if err := p.CheckModes("auto", "read-only", ""); err != nil {
		t.Errorf("auto, read-only: %v", err)
	}
	for host, denied := range map[string]bool{"pastebin.com": true, "PASTEBIN.com.": true, "x.ngrok.io": true, "ngrok.io": true, "example.com": false, "notpastebin.com": false} {
		if p.DeniesHost(host) != denied {
			t.Errorf("%s: denied %v", host, !denied)
		}
	}
	if err := p.AllowsServer("npx", []string{"-y", "@modelcontextprotocol/server-memory", "--x"}, ""); err != nil {
		t.Errorf("the listed server: %v", err)
	}
	if err := p.AllowsServer("npx", []string{"-y", "evil"}, ""); err == nil || !strings.Contains(err.Error(), "not npx -y evil") {
		t.Errorf("another: %v", err)
	}
	if err := p.AllowsServer("", nil, "https://mcp.example.com/mcp"); err != nil {
		t.Errorf("the listed URL: %v", err)
	}
	if err := p.AllowsServer("", nil, "https://mcp.example.com.evil/mcp"); err == nil {
		t.Errorf("a look-alike URL was allowed")
	}
	if err := (Policy{}).AllowsServer("anything", nil, ""); err != nil {
		t.Errorf("no allowlist: %v", err)
	}
}
