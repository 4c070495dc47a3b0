package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// policyRunner runs tai in-process on a new home with the administrator's
// policy read from pol (which the test writes), and returns the exit
// code and what it printed.
func policyRunner(t *testing.T) (pol string, run func(stdin string, args ...string) (int, string)) {
	home := t.TempDir()
	pol = filepath.Join(t.TempDir(), "policy.toml")
	return pol, func(stdin string, args ...string) (int, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		a := NewApp(strings.NewReader(stdin), &stdout, &stderr, func(k string) string { return map[string]string{"TAI_HOME": home, "PASSME": "passed"}[k] })
		a.policyPath = pol
		code := Run(context.Background(), a, args)
		return code, stdout.String() + stderr.String()
	}
}

// The administrator's policy applies before the person's settings and
// flags: a forbidden mode is one line and exit 2, a server off its
// allowlist is neither registered nor started, a refused host is refused
// in every mode, and tai doctor shows it.
func TestPolicy_AppliesBeforeThePerson(t *testing.T) {
	pol, run := policyRunner(t)
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

// An allowlist entry may pin a server's tools by the digest of each
// definition, as `tai mcp tools SERVER --json` shows it: the tool named
// with its digest is offered and callable, another tool of the server is
// withheld, and so is the named one once its digest differs; a person's
// --enable does not override the policy.
func TestPolicy_PinsToolsByDigest(t *testing.T) {
	pol, run := policyRunner(t)
	if code, out := run(stdioConfig(), "mcp", "add", "-", "--yes", "--enable"); code != 0 {
		t.Fatalf("mcp add: exit %d: %s", code, out)
	}
	code, out := run("", "mcp", "tools", "fake", "--json")
	var listed []struct{ Remote, State, Digest string }
	if err := json.Unmarshal([]byte(out), &listed); code != 0 || err != nil || len(listed) != 2 {
		t.Fatalf("tools --json: exit %d %v: %s", code, err, out)
	}
	digest := map[string]string{}
	for _, l := range listed {
		if len(l.Digest) != 64 {
			t.Fatalf("tool %s has no digest: %q", l.Remote, l.Digest)
		}
		digest[l.Remote] = l.Digest
	}
	policy := func(envDigest string) {
		t.Helper()
		body := fmt.Sprintf("[[allowed_servers]]\ncommand = %q\ntools = { env = %q }\n", os.Args[0], envDigest)
		if err := os.WriteFile(pol, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	policy(digest["env"])
	_, out = run("", "mcp", "tools", "fake")
	if !regexp.MustCompile(`mcp_fake_env \[offered\]`).MatchString(out) || !strings.Contains(out, "mcp_fake_detach [not allowed by the administrator's policy]") {
		t.Errorf("tools under the policy:\n%s", out)
	}
	if code, out := run("", "mcp", "call", "fake", "env", `{"name":"FROM_ENTRY"}`, "--yes"); code != 0 || !strings.Contains(out, "entry-value") {
		t.Errorf("the allowed tool: exit %d: %s", code, out)
	}
	run("", "mcp", "tools", "fake", "--enable", "detach")
	if code, out := run("", "mcp", "call", "fake", "detach", "{}", "--yes"); code == 0 || !strings.Contains(out, "not allowed by the administrator's policy") {
		t.Errorf("another tool: exit %d: %s", code, out)
	}
	policy(strings.Repeat("0", 64))
	if code, out := run("", "mcp", "call", "fake", "env", `{"name":"FROM_ENTRY"}`, "--yes"); code == 0 || !strings.Contains(out, "not allowed by the administrator's policy") {
		t.Errorf("a definition with another digest: exit %d: %s", code, out)
	}
}
