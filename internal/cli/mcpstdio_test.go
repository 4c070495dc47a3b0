package cli

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
	"tai/internal/proctest"
)

// stdioConfig is a Codex config registering the test binary as the fake
// MCP server, with an env of its own and one variable passed through.
func stdioConfig() string {
	return `[mcp_servers.fake]
command = "` + os.Args[0] + `"
env = { TAI_FAKE_MCP = "1", TAI_FAKE_TOOLS = '[{"name":"env","description":"a variable"},{"name":"detach","description":"a detached sleep"}]', FROM_ENTRY = "entry-value" }
env_vars = ["PASSME"]
`
}

// tai's own credentials for other services stay with tai: a stdio server
// sees the allowlist, its entry's env and the variables passed through
// (env_vars), and nothing else, through the real tai mcp add and call.
func TestMCP_StdioServerGetsAMinimalEnvironment(t *testing.T) {
	home := t.TempDir()
	tai := func(stdin string, args ...string) string {
		t.Helper()
		cmd := taiCmd(home, args...)
		cmd.Env = append(cmd.Env, "AWS_SECRET_ACCESS_KEY=aws-secret", "GH_TOKEN=gh-secret", "HF_TOKEN=hf-secret",
			"GEMINI_API_KEY=gemini-secret", "PASSME=passed", "LANG=C.UTF-8")
		cmd.Stdin = strings.NewReader(stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tai %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
	tai(stdioConfig(), "mcp", "add", "-", "--yes", "--enable")
	// A value passed through from the environment counts as a secret: the
	// server got it, and tai redacts it from the result.
	want := map[string]string{"AWS_SECRET_ACCESS_KEY": "", "GH_TOKEN": "", "HF_TOKEN": "", "GEMINI_API_KEY": "",
		"PASSME": "[secret:PASSME]", "FROM_ENTRY": "entry-value", "LANG": "C.UTF-8"}
	for name, v := range want {
		if got := tai("", "mcp", "call", "fake", "env", `{"name":"`+name+`"}`, "--yes"); got != v {
			t.Errorf("the server sees %s=%q, want %q", name, got, v)
		}
	}
}

// A process the server detaches with setsid ends when tai closes the
// server, here when tai mcp call returns.
func TestMCP_DetachedProcessEndsWithTheServer(t *testing.T) {
	home := t.TempDir()
	add := taiCmd(home, "mcp", "add", "-", "--yes", "--enable")
	add.Stdin = strings.NewReader(stdioConfig())
	add.Env = append(add.Env, "PASSME=x")
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("tai mcp add: %v\n%s", err, out)
	}
	call := taiCmd(home, "mcp", "call", "fake", "detach", "--yes")
	call.Env = append(call.Env, "PASSME=x")
	out, err := call.Output()
	if err != nil {
		t.Fatalf("tai mcp call: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("tai mcp call printed %q, not a pid", out)
	}
	proctest.AssertGone(t, pid) // the detached process ends with tai mcp call
}

// The registration consent states what the server gets of the
// environment, and what passes through, before anything runs.
func TestMCP_ConsentStatesTheEnvironment(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startTerm(t, srv, t.TempDir(), []string{"PASSME=passed"}, "mcp", "add", stdioConfig())
	tm.waitFor("the registration consent", func(s, cursor string) bool {
		return cursor == "allow? (y/n) Esc denies"
	})
	s := tm.screen()
	for _, want := range []string{"environment: only HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG, LC_*, TMPDIR, TZ, and proxy settings without credentials",
		"passed through from your environment: PASSME"} {
		if !strings.Contains(s, want) {
			t.Errorf("the consent lacks %q", want)
		}
	}
	tm.send("n")
	if code := tm.exitCode(); code == 0 {
		t.Errorf("declined, tai mcp add exited 0")
	}
}
