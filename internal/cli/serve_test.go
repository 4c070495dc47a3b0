package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"tai/internal/catalog"
	"tai/internal/llm/llmtest"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

const serveKey = "cli-test-key-0123456789"

// startServe runs `tai --serve-mcp` on a free loopback port of home and
// returns its URL and the running command; the model is model's fake.
func startServe(t *testing.T, home string, model *llmtest.Server, args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := taiCmd(home, append([]string{"--serve-mcp", "-", "--mcp-port", "0"}, args...)...)
	cmd.Env = append(cmd.Env, "TAI_MCP_KEY="+serveKey)
	if model != nil {
		cmd.Env = append(cmd.Env, "TAI_BASE_URL="+model.URL+"/v1", "TAI_MODEL=openai:fake", "OPENAI_API_KEY="+llmtest.Key)
	}
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
	lines := bufio.NewScanner(stderr)
	var head []string
	for lines.Scan() {
		head = append(head, lines.Text())
		if m := regexp.MustCompile(`serving MCP at (http://\S+)`).FindStringSubmatch(lines.Text()); m != nil {
			go func() { // keep draining
				for lines.Scan() {
				}
			}()
			if !strings.Contains(strings.Join(head, "\n"), "NOTICE: approvals run as --yolo") {
				t.Errorf("no --yolo notice before serving: %q", head)
			}
			return m[1], cmd
		}
	}
	t.Fatalf("tai --serve-mcp did not start:\n%s", strings.Join(head, "\n"))
	return "", nil
}

// A registered, enabled server's tools are never served: the native
// catalogue plus chat and completions is, to tai's own client. A served
// chat runs a full agent, which reaches the bridged tools enabled for its
// profile (mcp.md); direct calls, mcp_call and tool_search over the
// endpoint still do not. Each chat call and each tool its agent calls is
// one audit row of origin served-chat. SIGTERM ends the server with exit 0.
func TestServe_RealBinary(t *testing.T) {
	ctx := context.Background()
	s, home := openVault(t)
	srv := vault.MCPServer{Name: "foreign", Transport: "stdio", Command: os.Args[0], Source: "explicit",
		Env: map[string]string{"TAI_FAKE_MCP": "1", "TAI_FAKE_TOOLS": `[{"name":"echo","description":"echo through the foreign server"}]`}}
	srv.ConsentedHash = bridge.LaunchHash(bridge.EntryOf(srv))
	reg := bridge.Registration(srv, []wire.Tool{{Name: "echo", Description: "echo through the foreign server", InputSchema: json.RawMessage(`{"type":"object"}`)}})
	reg.Enable = []string{vault.DefaultProfile}
	if err := s.RegisterMCPServer(ctx, reg); err != nil {
		t.Fatal(err)
	}
	s.Close()
	model := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{{Name: "mcp_foreign_echo", Arguments: llmtest.Chunks{`{"message":"through the served chat"}`}}}},
		{Text: llmtest.Chunks{"hello from the model"}},
		{Text: llmtest.Chunks{"completed"}},
	}})
	url, cmd := startServe(t, home, model)

	c, err := client.Connect(ctx, client.Options{Transport: client.HTTP{URL: url, Headers: map[string]string{"Authorization": "Bearer " + serveKey}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if info := c.Server(); info.ServerInfo.Name != "tai" || info.ProtocolVersion != wire.StatelessVersion {
		t.Errorf("server: %+v", info)
	}
	listed, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(catalog.Native()) + 2; len(listed) != want {
		t.Errorf("%d tools served, want %d (the native catalogue, chat and completions)", len(listed), want)
	}
	for _, tl := range listed {
		if strings.Contains(tl.Name, "foreign") {
			t.Errorf("bridged tool %s is served", tl.Name)
		}
	}
	res, err := c.CallTool(ctx, "chat", json.RawMessage(`{"message":"echo this through the foreign server"}`))
	if err != nil || res.IsError || res.Text() != "hello from the model" {
		t.Fatalf("chat: %+v %v", res, err)
	}
	reqs := model.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	offered := false
	for _, tool := range reqs[0].Tools {
		offered = offered || tool.Name == "mcp_foreign_echo"
	}
	if !offered {
		t.Errorf("a served chat agent was not offered the profile's bridged tool")
	}
	if got := lastToolResult(reqs[1]); got != "through the served chat" {
		t.Errorf("the bridged call's result the agent saw: %q", got)
	}
	res, err = c.CallTool(ctx, "completions", json.RawMessage(`{"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil || res.Text() != "completed" {
		t.Errorf("completions: %+v %v", res, err)
	}
	res, err = c.CallTool(ctx, "mcp_call", json.RawMessage(`{"server":"foreign","tool":"echo"}`))
	if err != nil || !res.IsError {
		t.Errorf("served mcp_call: %+v %v", res, err)
	}
	res, err = c.CallTool(ctx, "tool_search", json.RawMessage(`{"query":"echo through the foreign server"}`))
	if err != nil || strings.Contains(res.Text(), "mcp_foreign") {
		t.Errorf("served tool_search offers a bridged tool: %s %v", res.Text(), err)
	}
	if _, err := c.CallTool(ctx, "mcp_foreign_echo", json.RawMessage(`{}`)); !isCode(err, wire.CodeInvalidParams) {
		t.Errorf("calling a bridged tool by name: %v", err)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGTERM: %v; want exit 0", err)
	}
	s, err = vault.Open(ctx, home, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.AuditEntries(ctx, vault.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Kind+" "+r.Subject+" "+r.Outcome+" "+r.Origin)
	}
	want := []string{"mcp-call foreign/echo ok served-chat", "mcp-serve chat ok served", "mcp-serve completions ok served",
		"mcp-serve foreign/echo tool-error served", "mcp-serve tool_search ok served"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// lastToolResult is the content of the last tool message of a request.
func lastToolResult(r llmtest.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// A direct agent_fork builds its parent agent on first use and runs a
// child on the fake model.
func TestServe_SubagentsOverServedCalls(t *testing.T) {
	model := llmtest.Start(t, llmtest.Script{Rules: []llmtest.Rule{{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"child done"}}}}}})
	url, _ := startServe(t, filepath.Join(t.TempDir(), "home"), model)
	c, err := client.Connect(context.Background(), client.Options{Transport: client.HTTP{URL: url, Headers: map[string]string{"Authorization": "Bearer " + serveKey}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(context.Background(), "agent_fork", json.RawMessage(`{"brief":"say something"}`))
	if err != nil || res.IsError || !strings.Contains(res.Text(), "child done") {
		t.Fatalf("agent_fork: %+v %v", res, err)
	}
}

func isCode(err error, code int64) bool {
	var e *wire.Error
	return errors.As(err, &e) && e.Code == code
}

func TestServe_WrongKeyIsRefused(t *testing.T) {
	url, _ := startServe(t, filepath.Join(t.TempDir(), "home"), nil)
	_, err := client.Connect(context.Background(), client.Options{Transport: client.HTTP{URL: url,
		Headers: map[string]string{"Authorization": "Bearer " + serveKey + "x"}}})
	var he *wire.HTTPError
	if !errors.As(err, &he) || he.Status != 401 {
		t.Errorf("wrong key: %v", err)
	}
}

// tai --serve-mcp serves its profile's vault records as resources: a
// record of the default profile is read whole by its URI, another
// profile's is not found (-32002), and the capabilities say so.
func TestServe_RecordsAreResources(t *testing.T) {
	ctx := context.Background()
	s, home := openVault(t)
	mine, err1 := s.PutRecord(ctx, "default", "spill", "record body")
	theirs, err2 := s.PutRecord(ctx, "work", "spill", "not served")
	s.Close()
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	url, _ := startServe(t, home, nil)
	post := func(sess, body string) (*wire.Message, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+serveKey)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sess != "" {
			req.Header.Set("Mcp-Session-Id", sess)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		m, err := wire.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return m, resp.Header.Get("Mcp-Session-Id")
	}
	init, sess := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !strings.Contains(string(init.Result), `"resources":{"subscribe":true}`) || strings.Contains(string(init.Result), `"prompts"`) {
		t.Errorf("capabilities: %s", init.Result)
	}
	read := func(id string) *wire.Message {
		m, _ := post(sess, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"tai://record/`+id+`"}}`)
		return m
	}
	if m := read(mine); m.Error != nil || !strings.Contains(string(m.Result), `"text":"record body"`) {
		t.Errorf("reading the profile's record: %s %v", m.Result, m.Error)
	}
	if m := read(theirs); m.Error == nil || m.Error.Code != wire.CodeResourceNotFound {
		t.Errorf("reading another profile's record: %s %v", m.Result, m.Error)
	}
}
