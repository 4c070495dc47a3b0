package interop

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
)

// startGoServer runs goserver over HTTP on a loopback port and returns its
// URL.
func startGoServer(t testing.TB, jsonReplies bool, more ...string) string {
	t.Helper()
	args := append([]string{"-http", "127.0.0.1:0"}, more...)
	if jsonReplies {
		args = append(args, "-json")
	}
	cmd := exec.Command(goServer, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("goserver did not print its URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// checkGoServer runs the Go SDK server's tools; version is the revision
// the connection should have settled on.
func checkGoServer(t *testing.T, c *client.Client, version string) {
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 8 || !strings.Contains(names(tools), "echo") {
		t.Fatalf("tools: %s", names(tools))
	}
	if got := call(t, c, "echo", `{"text":"hello"}`).Text(); got != "hello" {
		t.Errorf("echo: %q", got)
	}
	if res := call(t, c, "add", `{"a":2,"b":3}`); string(res.StructuredContent) != `{"sum":5}` {
		t.Errorf("add: %s", res.StructuredContent)
	}
	expectToolError(t, c, "fail", `{"text":"x"}`)
	expectRPCError(t, c, "no_such_tool", `{}`, wire.CodeInvalidParams)
	if err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v := c.Server().ProtocolVersion; v != version {
		t.Errorf("negotiated %q, want %q", v, version)
	}
}

// The Go SDK v1.8.0 server speaks both eras over stdio and over its
// stateless HTTP handler: a client without a verdict probes and settles on
// the stateless one; one that remembers the session era opens with
// initialize and stays there. Its stateful HTTP handler answers discover
// with session-era versions only, so there the probe ends on 2025-11-25.
func eachEra(t *testing.T, tr func() client.Transport, probed string) {
	for era, version := range map[string]string{"": probed, wire.SessionEra.Name: wire.ProtocolVersion} {
		t.Run(map[string]string{"": "probe", "session": "session"}[era], func(t *testing.T) {
			c := connectEra(t, tr(), era)
			checkGoServer(t, c, version)
		})
	}
}

func TestGoSDK_Stdio(t *testing.T) {
	eachEra(t, func() client.Transport { return client.Stdio{Command: goServer} }, wire.StatelessVersion)
}

func TestGoSDK_HTTPJSON(t *testing.T) {
	url := startGoServer(t, true)
	eachEra(t, func() client.Transport { return client.HTTP{URL: url} }, wire.ProtocolVersion)
}

func TestGoSDK_HTTPEventStream(t *testing.T) {
	url := startGoServer(t, false)
	eachEra(t, func() client.Transport { return client.HTTP{URL: url} }, wire.ProtocolVersion)
}

func TestGoSDK_HTTPStateless(t *testing.T) {
	for _, jsonReplies := range []bool{true, false} {
		url := startGoServer(t, jsonReplies, "-stateless")
		eachEra(t, func() client.Transport { return client.HTTP{URL: url} }, wire.StatelessVersion)
	}
}
