package interop

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
)

// The TypeScript SDK (1.32) behind the npm servers answers an unknown tool
// with an isError result ("Tool x not found"), not a JSON-RPC error;
// arguments that are not an object fail its request schema and come back
// as JSON-RPC error -32603. The Go SDK answers an unknown tool with -32602
// (go_test.go).

func checkEverything(t *testing.T, c *client.Client) {
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"echo", "get-sum", "get-structured-content"} {
		if !strings.Contains(","+names(tools)+",", ","+want+",") {
			t.Errorf("tools %s lack %s", names(tools), want)
		}
	}
	if got := call(t, c, "echo", `{"message":"hi ü"}`).Text(); got != "Echo: hi ü" {
		t.Errorf("echo: %q", got)
	}
	if got := call(t, c, "get-sum", `{"a":2,"b":40}`).Text(); !strings.Contains(got, "42") {
		t.Errorf("get-sum: %q", got)
	}
	expectToolError(t, c, "get-sum", `{"a":"two","b":40}`)
	expectToolError(t, c, "no-such-tool", `{}`)
	expectRPCError(t, c, "echo", `"not an object"`, wire.CodeInternalError)
	if err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestEverything_Stdio(t *testing.T) {
	c := connect(t, client.Stdio{Command: "node", Args: []string{nodeServer(t, "server-everything"), "stdio"}})
	checkEverything(t, c)
}

func TestEverything_StreamableHTTP(t *testing.T) {
	url, ready := startEverythingHTTP(t)
	c := connectHTTP(t, url, ready)
	checkEverything(t, c)
}

// startEverythingHTTP starts server-everything over Streamable HTTP and
// returns its URL and a channel closed once it listens.
func startEverythingHTTP(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	requireLoopbackNamespace(t)
	entry := nodeServer(t, "server-everything")
	port := freePort(t)
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
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
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port), ready
}

func TestFilesystem_Stdio(t *testing.T) {
	dir := t.TempDir()
	c := connect(t, client.Stdio{Command: "node", Args: []string{nodeServer(t, "server-filesystem"), dir}})
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(names(tools), "read_text_file") || len(tools) < 10 {
		t.Fatalf("tools: %s", names(tools))
	}
	file := filepath.Join(dir, "note.txt")
	call(t, c, "write_file", fmt.Sprintf(`{"path":%q,"content":"written by tai"}`, file))
	res := call(t, c, "read_text_file", fmt.Sprintf(`{"path":%q}`, file))
	if res.IsError || res.Text() != "written by tai" {
		t.Fatalf("read back: %+v", res)
	}
	if !strings.Contains(string(res.StructuredContent), "written by tai") {
		t.Errorf("structuredContent %s", res.StructuredContent)
	}
	expectToolError(t, c, "read_text_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "missing.txt")))
	expectToolError(t, c, "read_text_file", `{"path":"/etc/passwd"}`) // outside the allowed directory
	expectToolError(t, c, "no_such_tool", `{}`)
	expectRPCError(t, c, "read_text_file", `[1]`, wire.CodeInternalError)
}

func TestMemory_Stdio(t *testing.T) {
	store := filepath.Join(t.TempDir(), "memory.jsonl")
	c := connect(t, client.Stdio{Command: "node", Args: []string{nodeServer(t, "server-memory")},
		Env: map[string]string{"MEMORY_FILE_PATH": store}})
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(names(tools), "create_entities") || !strings.Contains(names(tools), "read_graph") {
		t.Fatalf("tools: %s", names(tools))
	}
	call(t, c, "create_entities", `{"entities":[{"name":"tai","entityType":"agent","observations":["speaks MCP"]}]}`)
	if got := call(t, c, "read_graph", `{}`).Text(); !strings.Contains(got, "speaks MCP") {
		t.Fatalf("graph: %s", got)
	}
	expectToolError(t, c, "create_entities", `{"entities":"not a list"}`)
	expectToolError(t, c, "no_such_tool", `{}`)
	expectRPCError(t, c, "read_graph", `"x"`, wire.CodeInternalError)
	if b, err := os.ReadFile(store); err != nil || !strings.Contains(string(b), "speaks MCP") {
		t.Fatalf("the server's store %s: %v", b, err)
	}
}

// The reference GitHub server still answers with the first protocol
// revision, 2024-11-05; tai's client accepts it and the tools work the
// same (listing needs no token).
func TestGitHubLegacy_Stdio(t *testing.T) {
	c := connect(t, client.Stdio{Command: "node", Args: []string{nodeServer(t, "server-github")}})
	if v := c.Server().ProtocolVersion; v != wire.LegacyVersion {
		t.Fatalf("version %q, want %s", v, wire.LegacyVersion)
	}
	tools, err := c.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(","+names(tools)+",", ",create_issue,") {
		t.Fatalf("tools %s lack create_issue", names(tools))
	}
}
