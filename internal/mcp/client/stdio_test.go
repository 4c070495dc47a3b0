package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tai"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
)

// fake describes the re-executed test binary running script.
func fake(t testing.TB, script string) Stdio {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A race-enabled binary sleeps a second before exiting unless told not
	// to; the fake must leave as soon as its stdin closes.
	env := map[string]string{fakeEnv: script, "GORACE": "atexit_sleep_ms=0"}
	// A well-behaved fake leaves on stdin close; only a stubborn one should
	// wait out the grace periods.
	grace := 10 * time.Second
	if strings.HasPrefix(script, "stubborn") {
		grace = 200 * time.Millisecond
	}
	return Stdio{Command: exe, Env: env, grace: grace}
}

// connect starts a fake, checks for leaks afterwards and closes it.
func connect(t *testing.T, script string, opts Options) *Client {
	t.Helper()
	checkLeaks(t)
	if opts.Transport == nil {
		opts.Transport = fake(t, script)
	}
	return connectWith(t, opts)
}

// connectWith connects as opts say and closes the client at the end.
func connectWith(t *testing.T, opts Options) *Client {
	t.Helper()
	c, err := Connect(context.Background(), opts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestStdio_HandshakeListAndCall(t *testing.T) {
	c := connect(t, "plain", Options{})
	ctx := context.Background()
	if got := c.Server().ServerInfo.Name; got != "fake" {
		t.Errorf("server name %q", got)
	}
	tools, err := c.ListTools(ctx)
	if err != nil || len(tools) != 1 || tools[0].Name != "t" {
		t.Fatalf("tools %+v, %v", tools, err)
	}
	if !strings.Contains(string(tools[0].Raw), `"readOnlyHint":true`) {
		t.Errorf("annotations lost: %s", tools[0].Raw)
	}
	args := json.RawMessage(`{"b":1,"a":[true,null]}`)
	res, err := c.CallTool(ctx, "echo", args)
	if err != nil || res.IsError || res.Text() != string(args) {
		t.Fatalf("echo: %+v %v", res, err)
	}
	res, err = c.CallTool(ctx, "fail", nil)
	if err != nil || !res.IsError || res.Text() != "it broke" {
		t.Fatalf("fail: %+v %v", res, err)
	}
	_, err = c.CallTool(ctx, "nosuch", nil)
	var rpc *wire.Error
	if !errors.As(err, &rpc) || rpc.Code != wire.CodeInvalidParams {
		t.Fatalf("unknown tool: %v", err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("client tai %s offers %s caps {}", tai.Version, wire.ProtocolVersion)
	if !strings.Contains(c.Stderr(), want) {
		t.Errorf("stderr %q lacks %q", c.Stderr(), want)
	}
	c.Close()
	if log := c.Stderr(); !strings.Contains(log, "fake: stdin closed") || strings.Contains(log, "terminated") {
		t.Errorf("server did not leave on stdin close alone: %q", log)
	}
}

func TestStdio_ChildEnvironmentLacksSecrets(t *testing.T) {
	t.Setenv("TAI_VAULT_PASSPHRASE", "s3cret")
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("HARMLESS", "kept")
	s := fake(t, "plain")
	s.Env["EXTRA"] = "added"
	s.Env["HARMLESS"] = "overridden"
	env := "\n" + fakeEnviron(t, s) + "\n"
	for _, bad := range []string{"s3cret", "sk-secret", "\nHARMLESS=kept\n"} {
		if strings.Contains(env, bad) {
			t.Errorf("child environment contains %q", bad)
		}
	}
	for _, good := range []string{"\nEXTRA=added\n", "\nHARMLESS=overridden\n", "\nPATH="} {
		if !strings.Contains(env, good) {
			t.Errorf("child environment lacks %q", good)
		}
	}
}

func TestConnect_RefusesUnfitServers(t *testing.T) {
	tests := map[string]string{
		"no-tools":      "declares no tools, resources or prompts",
		"old-version":   `speaks MCP 2024-10-07; tai speaks`,
		"invalid-reply": "invalid response",
	}
	for script, want := range tests {
		t.Run(script, func(t *testing.T) {
			checkLeaks(t)
			_, err := Connect(context.Background(), Options{Transport: inMemory(t, script), ConnectTimeout: time.Hour})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want an error containing %q", err, want)
			}
		})
	}
}

func TestConnect_AcceptsOlderKnownVersion(t *testing.T) {
	for script, want := range map[string]string{"downgrade": "2025-03-26", "legacy": "2024-11-05"} {
		t.Run(script, func(t *testing.T) {
			c := connect(t, script, Options{Transport: inMemory(t, script)})
			if v := c.Server().ProtocolVersion; v != want {
				t.Fatalf("version %q", v)
			}
			if _, err := c.ListTools(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestConnect_TimeoutCoversHandshake(t *testing.T) {
	for _, script := range []string{"mute", "garbage-reply"} {
		t.Run(script, func(t *testing.T) {
			checkLeaks(t)
			_, err := Connect(context.Background(), Options{Transport: inMemory(t, script), ConnectTimeout: 300 * time.Millisecond})
			var te *TimeoutError
			if !errors.As(err, &te) || te.Cap != "MCP_CONNECT_TIMEOUT" || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %v, want a connect timeout", err)
			}
		})
	}
}

func TestStdio_ServerExitMidCallFailsAtOnce(t *testing.T) {
	c := connect(t, "plain", Options{CallTimeout: time.Hour}) // a hang here would be the bug
	_, err := c.CallTool(context.Background(), "exit", nil)
	if !errors.Is(err, ErrLost) {
		t.Fatalf("got %v, want ErrLost", err)
	}
	for _, want := range []string{"exit status 3", "dying on purpose"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := c.CallTool(context.Background(), "echo", nil); !errors.Is(err, ErrLost) {
		t.Errorf("call after exit: %v", err)
	}
}

func TestClient_CallTimeoutSendsCancelled(t *testing.T) {
	c := connect(t, "plain", Options{Transport: inMemory(t, "plain"), CallTimeout: 200 * time.Millisecond})
	_, err := c.CallTool(context.Background(), "hang", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Cap != "MCP_CALL_TIMEOUT" {
		t.Fatalf("got %v, want a call timeout", err)
	}
	c.Close() // the fake handles the notification before the connection ends
	want := "cancelled 3: tools/call hang: no answer within 200ms (MCP_CALL_TIMEOUT)"
	if !strings.Contains(c.Stderr(), want) {
		t.Fatalf("stderr %q lacks %q", c.Stderr(), want)
	}
}

func TestClient_ContextCancelSendsCancelled(t *testing.T) {
	c := connect(t, "plain", Options{Transport: inMemory(t, "plain")})
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		// cancel once the call is in flight: the fake reports it on stderr
		for !strings.Contains(c.Stderr(), "hanging") {
			time.Sleep(time.Millisecond)
		}
		cancel(errors.New("user pressed ctrl-c"))
	}()
	_, err := c.CallTool(ctx, "hang", nil)
	if err == nil || !strings.Contains(err.Error(), "ctrl-c") {
		t.Fatalf("got %v", err)
	}
	c.Close()
	if !strings.Contains(c.Stderr(), "cancelled 3: ") {
		t.Fatalf("no cancellation reached the server: %q", c.Stderr())
	}
}

func TestStdio_NonJSONLinesAreSkippedAndNoted(t *testing.T) {
	c := connect(t, "garbage", Options{})
	if _, err := c.CallTool(context.Background(), "echo", nil); err != nil {
		t.Fatal(err)
	}
	log := c.Stderr()
	if !strings.Contains(log, "tai: skipped a stdout line that is not JSON-RPC: hello from a server") {
		t.Errorf("log %q lacks the note", log)
	}
	if strings.Contains(log, "\x1b") {
		t.Errorf("log keeps a control character: %q", log)
	}
}

func TestStdio_Floods(t *testing.T) {
	for _, script := range []string{"flood-stdout", "flood-stderr"} {
		t.Run(script, func(t *testing.T) {
			c := connect(t, script, Options{})
			if _, err := c.CallTool(context.Background(), "echo", nil); err != nil {
				t.Fatal(err)
			}
			if n := len(c.Stderr()); n > tailMax+tailMax/2 {
				t.Errorf("kept %d bytes of log, cap %d", n, tailMax)
			}
		})
	}
}

func TestStdio_LineOverCapEndsConnection(t *testing.T) {
	c := connect(t, "plain", Options{CallTimeout: time.Hour})
	_, err := c.CallTool(context.Background(), "big", nil)
	if !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "over 10MiB (MCP_HTTP_MAX_BODY)") {
		t.Fatalf("got %v", err)
	}
}

func TestStdio_RequestOverCapFailsAlone(t *testing.T) {
	c := connect(t, "plain", Options{})
	big := json.RawMessage(`"` + strings.Repeat("a", wire.HTTPMaxBody) + `"`)
	_, err := c.CallTool(context.Background(), "echo", big)
	if err == nil || !strings.Contains(err.Error(), "MCP_HTTP_MAX_BODY") {
		t.Fatalf("got %v", err)
	}
	if _, err := c.CallTool(context.Background(), "echo", nil); err != nil {
		t.Fatalf("connection unusable after a refused message: %v", err)
	}
}

func TestStdio_ResponseForUnknownIDIsDropped(t *testing.T) {
	c := connect(t, "unknown-id", Options{})
	res, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"x":1}`))
	if err != nil || res.Text() != `{"x":1}` {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(c.Stderr(), "dropped a response to unknown request id 987654") {
		t.Errorf("log %q", c.Stderr())
	}
}

func TestClient_SeveralCallsInFlight(t *testing.T) {
	callsInFlight(t, connect(t, "plain", Options{Transport: inMemory(t, "plain")}))
}

func TestClient_AnswersServerRequests(t *testing.T) {
	answersServerRequests(t, connect(t, "ask", Options{Transport: inMemory(t, "ask")}))
}

func TestClient_ListToolsFollowsCursors(t *testing.T) {
	c := connect(t, "pages", Options{Transport: inMemory(t, "pages")})
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "t,tp2,tp3" {
		t.Fatalf("tools %v", names)
	}
}

func TestClient_ListToolsRefusesEndlessPagination(t *testing.T) {
	for script, want := range map[string]string{"loop-cursor": `repeated cursor "again"`, "endless": "more than 100 pages"} {
		t.Run(script, func(t *testing.T) {
			c := connect(t, script, Options{Transport: inMemory(t, script)})
			_, err := c.ListTools(context.Background())
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want %q", err, want)
			}
		})
	}
}

func TestStdio_CloseKillsTheProcessGroup(t *testing.T) {
	c := connect(t, "stubborn", Options{})
	pid := stderrPid(t, c, "grandchild")
	if !alive(pid) {
		t.Fatalf("grandchild %d not running before Close", pid)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, "grandchild")
	if _, err := c.CallTool(context.Background(), "echo", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
}

// A process the server moved into a session of its own (setsid) is out of
// its process group, yet ends with it too: whether the server leaves on
// stdin close and the leftover is found after, or ignores SIGTERM and is
// stopped with it. checkLeaks then proves nothing was left unreaped.
func TestStdio_CloseEndsDetachedProcesses(t *testing.T) {
	for _, script := range []string{"detacher", "stubborn-detacher"} {
		t.Run(script, func(t *testing.T) {
			c := connect(t, script, Options{})
			pid := stderrPid(t, c, "detached")
			if !alive(pid) {
				t.Fatalf("detached process %d not running before Close", pid)
			}
			c.Close()
			waitGone(t, pid, "detached process")
		})
	}
}

// stderrPid waits for the server's stderr line "what PID".
func stderrPid(t *testing.T, c *Client, what string) int {
	t.Helper()
	re := regexp.MustCompile(what + ` (\d+)`)
	deadline := time.Now().Add(10 * time.Second)
	m := re.FindStringSubmatch(c.Stderr())
	for ; m == nil; m = re.FindStringSubmatch(c.Stderr()) { // stderr is drained apart from the handshake
		if time.Now().After(deadline) {
			t.Fatalf("no %q line on the server's stderr: %q", what, c.Stderr())
		}
		time.Sleep(time.Millisecond)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// waitGone fails unless pid stops running within 5s: SIGKILL is delivered
// asynchronously, so it may take a moment after Close has sent it.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			killPid(pid)
			t.Fatalf("%s %d outlived Close by 5s", what, pid)
		}
	}
}

func TestStdio_SpawnFailureSaysWhatToCheck(t *testing.T) {
	checkLeaks(t)
	_, err := Connect(context.Background(), Options{Transport: Stdio{Command: "/nonexistent/mcp-server"}})
	if err == nil || !strings.Contains(err.Error(), "check the command") {
		t.Fatalf("got %v", err)
	}
}

// A server gets a few of tai's variables and what its entry sets, nothing
// else: no cloud or forge token, no proxy password, no shell function.
func TestStdio_ChildEnvironmentIsMinimal(t *testing.T) {
	tai := map[string]string{
		"AWS_SECRET_ACCESS_KEY": "aws-secret", "GH_TOKEN": "gh-secret", "HF_TOKEN": "hf-secret",
		"GEMINI_API_KEY": "gemini-secret", "TAI_MODEL": "openai:x", "npm_config__auth": "npm-secret",
		"BASH_FUNC_f%%": "() {  evil; }", "HTTP_PROXY": "http://me:pw-secret@proxy.internal:3128",
		"HTTPS_PROXY": "http://proxy.internal:3128", "NO_PROXY": ".internal", "LANG": "C.UTF-8", "LC_TIME": "C",
		"TZ": "UTC", "TMPDIR": t.TempDir(), "HOME": "/home/someone", "EDITOR": "vi",
	}
	for k, v := range tai {
		t.Setenv(k, v)
	}
	s := fake(t, "plain")
	s.Env["GH_TOKEN"] = "passed-through"
	s.Env["TZ"] = "Europe/Paris"
	got := map[string]string{}
	for _, kv := range strings.Split(fakeEnviron(t, s), "\n") {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for _, k := range []string{"AWS_SECRET_ACCESS_KEY", "HF_TOKEN", "GEMINI_API_KEY", "TAI_MODEL", "npm_config__auth", "BASH_FUNC_f%%", "HTTP_PROXY", "EDITOR"} {
		if v, ok := got[k]; ok {
			t.Errorf("the server got %s=%s", k, v)
		}
	}
	want := map[string]string{"GH_TOKEN": "passed-through", "TZ": "Europe/Paris", "HTTPS_PROXY": tai["HTTPS_PROXY"],
		"NO_PROXY": ".internal", "LANG": "C.UTF-8", "LC_TIME": "C", "TMPDIR": tai["TMPDIR"], "HOME": "/home/someone",
		fakeEnv: "plain", "PATH": os.Getenv("PATH")}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("the server got %s=%q, want %q", k, got[k], v)
		}
	}
}

// inMemory runs mcptest.Server with script in this process, over an
// InMemory transport: for the tests where a subprocess is not the point.
func inMemory(t testing.TB, script string) *InMemory {
	tr, end := NewInMemory("fake " + script)
	s := &mcptest.Server{Script: script, Stderr: end.Stderr,
		Send: func(m *wire.Message) { end.Send(m) }, Raw: func(line string) { end.SendRaw(line) }}
	end.Serve(s.Handle)
	t.Cleanup(end.Close)
	return tr
}

// fakeEnviron is the environment the fake s runs with, one NAME=value a line.
func fakeEnviron(t *testing.T, s Stdio) string {
	t.Helper()
	res, err := connect(t, "", Options{Transport: s}).CallTool(context.Background(), "env", nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Text()
}

// A Node.js crash ends with its stack, the error object's fields and the
// runtime's version: the quote keeps the error line.
func TestTail_NodeCrashQuotesTheError(t *testing.T) {
	var tl tail
	tl.Write([]byte(`node:internal/modules/cjs/loader:1228
  throw err;
  ^

Error: Cannot find module '/nonexistent/server/dist/index.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
`))
	want := "; its stderr ends: Error: Cannot find module '/nonexistent/server/dist/index.js' | code: 'MODULE_NOT_FOUND', | requireStack: []"
	if got := tl.quote(); got != want {
		t.Errorf("quote:\n got %s\nwant %s", got, want)
	}
}
