package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The administrator's policy applies before the person's settings and
// flags: a forbidden mode is one line and exit 2, a server off its
// allowlist is neither registered nor started, a refused host is refused
// in every mode, and tai doctor shows it.
func TestPolicy_AppliesBeforeThePerson(t *testing.T) {
	home := t.TempDir()
	pol := filepath.Join(t.TempDir(), "policy.toml")
	run := func(stdin string, args ...string) (int, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		a := NewApp(strings.NewReader(stdin), &stdout, &stderr, func(k string) string { return map[string]string{"TAI_HOME": home, "PASSME": "passed"}[k] })
		a.policyPath = pol
		code := Run(context.Background(), a, args)
		return code, stdout.String() + stderr.String()
	}
	// Registered before the policy: it runs until the policy names others.
	if code, out := run(stdioConfig(), "mcp", "add", "-", "--yes", "--enable"); code != 0 {
		t.Fatalf("mcp add: exit %d: %s", code, out)
	}
	if err := os.WriteFile(pol, []byte(`forbid_sandbox_off = true
forbid_yolo = true
denied_hosts = ["*.evil.example"]
[[allowed_servers]]
url = "https://mcp.example.com/"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--yolo", "-p", "hi"}, "forbids approving with yolo (flag --yolo)"},
		{[]string{"--sandbox", "off", "-p", "hi"}, "forbids --sandbox off (flag --sandbox)"},
		{[]string{"mcp", "call", "fake", "env", `{"name":"FROM_ENTRY"}`, "--yes"}, "allows only listed MCP servers, and not"},
	} {
		code, out := run("", tc.args...)
		if code != ExitUsage && code != ExitFailed || !strings.Contains(out, tc.want) || strings.Count(strings.TrimSpace(out), "\n") > 1 {
			t.Errorf("%v: exit %d: %s", tc.args, code, out)
		}
	}
	if code, out := run(stdioConfig(), "mcp", "add", "-", "--name", "other", "--yes"); code == 0 || !strings.Contains(out, "allows only listed MCP servers") {
		t.Errorf("a server off the list was registered: exit %d: %s", code, out)
	}
	if code, out := run("", "doctor", "--offline"); !strings.Contains(out, "policy: "+pol+": no --sandbox off, no --yolo, 1 hosts refused, only 1 listed MCP servers") {
		t.Errorf("doctor: exit %d: %s", code, out)
	}
	if err := os.WriteFile(pol, []byte("forbid_everything = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := run("", "-p", "hi"); code == 0 || !strings.Contains(out, "has a key tai does not know (forbid_everything)") {
		t.Errorf("a broken policy: exit %d: %s", code, out)
	}
}
