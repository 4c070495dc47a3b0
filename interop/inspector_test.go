package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tai/internal/catalog"
)

// inspector runs the MCP Inspector's CLI (pinned in the lockfile, on Node
// 22) against url with tai's key and returns its output. It exits 5 when a
// tool returned isError, printing the result too; okCodes lists the exit
// codes besides 0 the caller expects.
func inspector(t *testing.T, url string, okCodes []int, args ...string) []byte {
	t.Helper()
	node := node22(t)
	cli := filepath.Join(interopDir(), "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	cmd := exec.Command(node, append([]string{cli, "--cli", url, "--transport", "http",
		"--header", "Authorization: Bearer " + serveKey}, args...)...)
	home := t.TempDir() // the Inspector keeps a catalog and secrets under HOME
	cmd.Env = append(os.Environ(), "HOME="+home, "PATH="+filepath.Dir(node)+":"+os.Getenv("PATH"), "NO_COLOR=1")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && slices.Contains(okCodes, ee.ExitCode()) {
		err = nil
	}
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("inspector %s: %s\n%s", strings.Join(args, " "), msg, out)
	}
	return out
}

type inspectorResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func inspectorCall(t *testing.T, url, tool string, args ...string) inspectorResult {
	t.Helper()
	cmd := []string{"--method", "tools/call", "--tool-name", tool}
	for _, a := range args {
		cmd = append(cmd, "--tool-arg", a)
	}
	out := inspector(t, url, []int{toolIsError}, cmd...)
	// With isError, a line about it comes first, then the result.
	if i := bytes.Index(out, []byte("\n{")); bytes.HasPrefix(out, []byte(`{"error"`)) && i > 0 {
		out = out[i+1:]
	}
	var res inspectorResult
	if json.Unmarshal(out, &res) != nil || len(res.Content) == 0 {
		t.Fatalf("inspector tools/call %s: %s", tool, out)
	}
	return res
}

// toolIsError is the Inspector CLI's exit code for a result with isError.
const toolIsError = 5

// The Inspector lists every served tool, calls a native tool, and chats
// with the fake model through a real tai --serve-mcp.
func TestInspector_TaiServe(t *testing.T) {
	srv := startTaiServe(t, startFakeLLM(t, echoModel))
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if out := inspector(t, srv.url, nil, "--method", "tools/list"); json.Unmarshal(out, &list) != nil {
		t.Fatalf("tools/list: %s", out)
	}
	if want := len(catalog.Native()) + 2; len(list.Tools) != want {
		t.Errorf("the Inspector lists %d tools; tai serves %d", len(list.Tools), want)
	}
	if res := inspectorCall(t, srv.url, "read_file", "path=note.txt"); res.IsError || !strings.Contains(res.Content[0].Text, "hello from a file") {
		t.Errorf("read_file: %+v", res)
	}
	if res := inspectorCall(t, srv.url, "read_file", "path=missing.txt"); !res.IsError {
		t.Errorf("read_file of a missing file: %+v", res)
	}
	if res := inspectorCall(t, srv.url, "chat", "message=hello"); res.IsError || res.Content[0].Text != "fake model says: hello" {
		t.Errorf("chat: %+v", res)
	}
	srv.stop(t)
}
