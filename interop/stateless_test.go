package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tai/internal/catalog"
	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
)

// The stateless era (2026-07-28) against peers on the official SDKs: a
// TypeScript SDK 2.4.0 server that speaks nothing else (legacy: 'reject'),
// driven with the real tai binary over Streamable HTTP and stdio; TS SDK
// 2.4.0 clients, pinned and probing, against `tai --serve-mcp`; and a
// served chat that outlives a restart of tai. The Go SDK v1.8.0 peers in
// both eras are in go_test.go and goclient_test.go.

// ts2 returns the path of a script in ts2/.
func ts2(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(interopDir(), "ts2", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tryTai runs the tai binary on home and returns its output and exit code.
func tryTai(t *testing.T, home string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(taiBinary(t), args...)
	cmd.Env = append(os.Environ(), "TAI_HOME="+home)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatalf("tai %s: %v", strings.Join(args, " "), err)
	}
	return string(out), 0
}

// checkStatelessServer registers the TS SDK server with tai, as a person
// would, and calls its tools.
func checkStatelessServer(t *testing.T, add ...string) {
	home := t.TempDir()
	if out, code := tryTai(t, home, append([]string{"mcp", "add"}, add...)...); code != 0 || !strings.Contains(out, "registered MCP server ts2") {
		t.Fatalf("tai mcp add (exit %d):\n%s", code, out)
	}
	if out, _ := tryTai(t, home, "mcp", "list"); !regexp.MustCompile(`(?m)^ts2 +\S+ +2026-07-28 +default +3 `).MatchString(out) {
		t.Errorf("tai mcp list does not show the stateless era:\n%s", out)
	}
	if out, code := tryTai(t, home, "mcp", "call", "ts2", "echo", `{"message":"hi ü"}`, "--yes"); code != 0 || !strings.Contains(out, "Echo: hi ü") {
		t.Errorf("echo (exit %d):\n%s", code, out)
	}
	if out, code := tryTai(t, home, "mcp", "call", "ts2", "fail", `{}`, "--yes"); code != 1 || !strings.Contains(out, "it broke") {
		t.Errorf("fail (exit %d, want 1):\n%s", code, out)
	}
	if out, code := tryTai(t, home, "mcp", "call", "ts2", "echo", `{"message":5}`, "--yes"); code != 1 && code != 2 {
		t.Errorf("echo with a bad argument (exit %d):\n%s", code, out)
	}
}

// startTS2HTTP starts ts2/server.mjs over HTTP and returns its URL.
func startTS2HTTP(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(node22(t), ts2(t, "server.mjs"), "http")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return startLine(t, cmd, out, regexp.MustCompile(`^(http://\S+)$`))
}

func TestTS2StatelessServer_HTTP(t *testing.T) {
	url := startTS2HTTP(t)
	checkStatelessServer(t, "--name", "ts2", url, "--yes", "--enable")
	// The server refuses initialize: a client that only knew the session
	// era would fail on it (tai's own client, remembering that era,
	// probes again and settles on the stateless one).
	c := connectEra(t, client.HTTP{URL: url}, wire.SessionEra.Name)
	if c.Era().Name != wire.StatelessEra.Name {
		t.Errorf("era %q after a stale verdict", c.Era().Name)
	}
}

func TestTS2StatelessServer_Stdio(t *testing.T) {
	checkStatelessServer(t, "ts2", "--yes", "--enable", "--", node22(t), ts2(t, "server.mjs"))
}

// A TS SDK 2.4.0 client against tai --serve-mcp, pinned to 2026-07-28
// (which fails with ERA_NEGOTIATION_FAILED against a server without
// server/discover) and in auto mode (probe, fall back to initialize), must
// end on the stateless era.
func TestTS2Client_TaiServe(t *testing.T) {
	srv := startTaiServe(t, startFakeLLM(t, echoModel))
	for _, mode := range []string{"2026-07-28", "auto"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(node22(t), ts2(t, "client.mjs"), srv.url, mode)
			cmd.Dir = srv.dir
			cmd.Env = append(os.Environ(), "TAI_MCP_KEY="+serveKey)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("client.mjs %s: %v\n%s", mode, err, out)
			}
			var got struct {
				Era, Version, Server, Read, Chat string
				Tools, Unknown                   int
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			if got.Era != "modern" || got.Version != wire.StatelessVersion || got.Server != "tai" || got.Tools != len(catalog.Native())+2 ||
				!strings.Contains(got.Read, "hello from a file") || got.Chat != "fake model says: hi" || got.Unknown != wire.CodeInvalidParams {
				t.Errorf("mode %s saw %+v", mode, got)
			}
		})
	}
	srv.stop(t)
}

// A stateless-era chat conversation is kept in the vault: tai is stopped
// and started again on the same home, and the next turn of the
// conversation carries the earlier ones to the model.
func TestTaiServe_StatelessChatAcrossRestart(t *testing.T) {
	requests := filepath.Join(t.TempDir(), "requests.jsonl")
	model := startFakeLLMLogged(t, echoModel, requests)
	home, dir := t.TempDir(), t.TempDir()
	chat := func(message string) string {
		srv := startTaiServeIn(t, model, home, dir)
		c, err := client.Connect(context.Background(), client.Options{Transport: client.HTTP{URL: srv.url,
			Headers: map[string]string{"Authorization": "Bearer " + serveKey}}})
		if err != nil {
			t.Fatal(err)
		}
		if c.Era().Name != wire.StatelessEra.Name {
			t.Errorf("tai's client and server settled on era %q", c.Era().Name)
		}
		res, err := c.CallTool(context.Background(), "chat", json.RawMessage(`{"message":"`+message+`","session":"across"}`))
		c.Close()
		srv.stop(t)
		if err != nil || res.IsError {
			t.Fatalf("chat %s: %+v %v", message, res, err)
		}
		return res.Text()
	}
	if got := chat("first"); got != "fake model says: first" {
		t.Fatalf("first turn: %q", got)
	}
	if got := chat("second"); got != "fake model says: second" {
		t.Fatalf("turn after the restart: %q", got)
	}
	f, err := os.Open(requests)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last string
	for lines := bufio.NewScanner(f); lines.Scan(); {
		last = lines.Text()
	}
	for _, want := range []string{"first", "fake model says: first", "second"} {
		if !strings.Contains(last, `"`+want+`"`) {
			t.Errorf("the turn after the restart did not send %q to the model: %s", want, last)
		}
	}
}
