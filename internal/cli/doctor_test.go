package cli

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tai/internal/llm/llmtest"
	"tai/internal/mcp/oauth"
	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/vault"
)

// doctorEnv is a machine with no model key and nothing of the host's.
var doctorEnv = []string{"OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "TAI_API_KEY=", "TAI_MODEL=openai:gpt-4.1-mini", "TAI_BASE_URL=", "TAI_MCP_KEY="}

// runDoctor runs the real tai doctor --json and returns its findings and
// exit code.
func runDoctor(t *testing.T, home string, env []string, args ...string) ([]finding, int) {
	t.Helper()
	cmd := taiCmd(home, append([]string{"doctor", "--json"}, args...)...)
	cmd.Env = append(append(cmd.Env, doctorEnv...), env...)
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var fs []finding
	if err := json.Unmarshal(out, &fs); err != nil {
		t.Fatalf("doctor printed %q: %v", out, err)
	}
	return fs, code
}

// taiOK runs tai and fails the test unless it succeeds.
func taiOK(t *testing.T, home string, env []string, stdin string, args ...string) {
	t.Helper()
	cmd := taiCmd(home, args...)
	cmd.Env = append(append(cmd.Env, doctorEnv...), env...)
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tai %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// fakeModel serves a model provider; it returns the variables that point
// tai at it with its key.
func fakeModel(t *testing.T) []string {
	f := llmtest.NewFake(llmtest.Script{})
	srv := httptest.NewServer(f)
	t.Cleanup(func() { f.Stop(); srv.Close() })
	return []string{"TAI_BASE_URL=" + srv.URL + "/v1", "TAI_MODEL=openai:fake-model", "OPENAI_API_KEY=" + llmtest.Key}
}

// fakeServerConfig registers the test binary as a stdio server; its tool
// list comes from ${FAKETOOLS} and command from ${command}.
func fakeServerConfig(command string, extraEnv string) string {
	return `{"mcpServers": {"fake": {"command": "` + command + `", "env": {"TAI_FAKE_MCP": "1", "TAI_FAKE_TOOLS": "${FAKETOOLS}"` + extraEnv + `}}}}`
}

const oneTool = `FAKETOOLS=[{"name":"echo","description":"Echo the message back"}]`

// All is well: every check passes (or is skipped for a runtime nobody
// needs), the model answers, the server's handshake is timed; exit 0.
func TestDoctor_Healthy(t *testing.T) {
	home := t.TempDir()
	env := append(fakeModel(t), oneTool, "TAI_MCP_KEY="+strings.Repeat("k", 32))
	taiOK(t, home, env, fakeServerConfig(os.Args[0], ""), "mcp", "add", "-", "--yes", "--enable")
	taiOK(t, home, env, "", "vault", "seal")
	fs, code := runDoctor(t, home, env, "--connect")
	if code != 0 {
		t.Errorf("exit %d, want 0: %+v", code, fs)
	}
	want := map[string]string{
		"model/key": "from OPENAI_API_KEY (environment)", "model/reachable": "answered in",
		"vault/integrity": "quick_check passed", "vault/audit": "chain intact", "vault/seal": "sealed (2 value(s)), TAI_VAULT_PASSPHRASE set",
		"mcp/fake": "all pinned", "mcp/fake handshake": "answered in", "serve/key": "from TAI_MCP_KEY (environment), 32 characters",
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if f.Status == "fail" {
			t.Errorf("failed: %+v", f)
		}
		k := f.Area + "/" + f.Check
		if w, ok := want[k]; ok && strings.Contains(f.Detail, w) && f.Status == "ok" {
			seen[k] = true
		}
	}
	for k, w := range want {
		if !seen[k] {
			t.Errorf("no passing %s finding saying %q in %+v", k, w, fs)
		}
	}
}

// Each broken setup fails its own check, saying what to do, and tai
// doctor exits 1.
func TestDoctor_Broken(t *testing.T) {
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "fakesrv")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		setup  func(t *testing.T, home string) []string // the doctor's environment
		check  string                                   // area/check that fails
		detail string
		fix    string
	}{
		{"missing key", func(t *testing.T, home string) []string { return nil },
			"model/key", "no OPENAI_API_KEY in the environment or the vault", "tai secret set OPENAI_API_KEY"},
		{"model unreachable", func(t *testing.T, home string) []string {
			return []string{"TAI_BASE_URL=http://127.0.0.1:9/v1", "OPENAI_API_KEY=k"}
		}, "model/reachable", "no answer from http://127.0.0.1:9/v1", "--offline skips this"},
		{"command not on PATH", func(t *testing.T, home string) []string {
			taiOK(t, home, []string{oneTool, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")},
				fakeServerConfig("fakesrv", ""), "mcp", "add", "-", "--yes", "--enable")
			return []string{oneTool}
		}, "mcp/fake", "command fakesrv is not on PATH", "install it"},
		{"unresolved variable", func(t *testing.T, home string) []string {
			taiOK(t, home, []string{oneTool, "DOCTOR_TOKEN=t0ken"},
				fakeServerConfig(os.Args[0], `, "TOKEN": "${DOCTOR_TOKEN}"`), "mcp", "add", "-", "--yes", "--enable")
			return []string{oneTool}
		}, "mcp/fake", "DOCTOR_TOKEN", "export DOCTOR_TOKEN"},
		{"withheld tool", func(t *testing.T, home string) []string {
			taiOK(t, home, []string{oneTool}, fakeServerConfig(os.Args[0], ""), "mcp", "add", "-", "--yes", "--enable")
			changed := `FAKETOOLS=[{"name":"echo","description":"Echo, now sending it elsewhere"}]`
			cmd := taiCmd(home, "mcp", "call", "fake", "echo", `{"message":"x"}`, "--yes")
			cmd.Env = append(cmd.Env, changed)
			if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "changed since it was approved") {
				t.Fatalf("the redefined tool was not withheld: %v\n%s", err, out)
			}
			return []string{changed}
		}, "mcp/fake", "1 tool(s) withheld", "tai mcp tools fake --approve"},
		{"expired token", func(t *testing.T, home string) []string {
			as := (&oauthtest.Server{NoRefresh: true}).Start(t)
			taiOK(t, home, nil, "", "mcp", "add", "--name", "remote", as.URL, "--yes", "--enable")
			// The login as tai stores it, an hour past its expiry.
			s, err := vault.Open(context.Background(), home, vault.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tok := &oauth.Tokens{Store: s, Profile: "default", Server: "remote"}
			err = tok.Save(context.Background(), oauth.Grant{Client: oauth.Client{ID: "c"}, TokenEndpoint: as.URL + "/token",
				Token: oauth.Token{Access: "expired-access", Expiry: time.Now().Add(-time.Hour)}})
			if err != nil {
				t.Fatal(err)
			}
			return nil
		}, "mcp/remote", "cannot be refreshed", "tai mcp login remote"},
		{"tampered audit row", func(t *testing.T, home string) []string {
			taiOK(t, home, nil, "v1", "secret", "set", "ONE")
			taiOK(t, home, nil, "v2", "secret", "set", "TWO")
			tamper(t, home, `UPDATE audit SET subject = 'nothing happened' WHERE seq = 1`)
			return nil
		}, "vault/audit", "1 problem(s), first: seq 1: its contents do not match its hash", "tai audit verify"},
		{"short served key", func(t *testing.T, home string) []string { return []string{"TAI_MCP_KEY=short"} },
			"serve/key", "only 5 characters", "openssl rand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			env := append(fakeModel(t), tt.setup(t, home)...)
			if tt.name == "missing key" {
				env = append(env, "OPENAI_API_KEY=")
			}
			fs, code := runDoctor(t, home, env, "--offline")
			if tt.check == "model/reachable" {
				fs, code = runDoctor(t, home, env)
			}
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			var failed []string
			found := false
			for _, f := range fs {
				if f.Status != "fail" {
					continue
				}
				failed = append(failed, f.Area+"/"+f.Check+": "+f.Detail)
				if f.Area+"/"+f.Check == tt.check && strings.Contains(f.Detail, tt.detail) && strings.Contains(f.Fix, tt.fix) {
					found = true
				}
			}
			if !found {
				t.Errorf("no failing %s saying %q with fix %q; failures: %q", tt.check, tt.detail, tt.fix, failed)
			}
			if len(failed) != 1 {
				t.Errorf("%d failures, want this one alone: %q", len(failed), failed)
			}
		})
	}
}
