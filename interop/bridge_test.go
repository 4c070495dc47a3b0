package interop

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/agent"
	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/mcp/bridge"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

// runTai runs the tai binary on home with stdin and returns its combined
// output, failing the test on a non-zero exit.
func runTai(t *testing.T, home, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(taiBinary(t), args...)
	cmd.Env = append(os.Environ(), "TAI_HOME="+home)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tai %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// offerAll offers every native and bridged tool that may be offered.
type offerAll struct{ reg *tools.Registry }

func (o offerAll) Select(context.Context, agent.SelectQuery) []*tools.Tool {
	var out []*tools.Tool
	for _, t := range o.reg.All() {
		if !t.Unoffered {
			out = append(out, t)
		}
	}
	return out
}

// consentLog allows every call once and records what it was shown.
type consentLog struct{ titles []string }

func (c *consentLog) Consent(_ context.Context, tc tools.Consent, _ bool) (agent.Decision, error) {
	c.titles = append(c.titles, tc.Title)
	return agent.AllowOnce, nil
}

// The npm reference servers registered with `tai mcp add` from a pasted
// config (the real binary, on a fresh home), then an agent
// turn on the fake model calls their tools through the bridge: each call
// asks approval naming server and tool, a large result spills to a record,
// a secret the server echoes back is redacted, and every call is audited.
func TestBridge_RealServersThroughTheAgent(t *testing.T) {
	ctx := context.Background()
	home := filepath.Join(t.TempDir(), "home")
	const secret = "demo-secret-value-4242"
	runTai(t, home, secret+"\n", "secret", "set", "DEMO_TOKEN")
	root := t.TempDir()
	big := strings.Repeat("0123456789abcdef\n", 6000) // 102,000 bytes
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	paste := fmt.Sprintf(`{"mcpServers": {
	  "everything": {"command": "node", "args": [%q, "stdio"], "env": {"DEMO_TOKEN": "${DEMO_TOKEN}"}},
	  "filesystem": {"command": "node", "args": [%q, %q]},
	  "memory": {"command": "node", "args": [%q]}
	}}`, nodeServer(t, "server-everything"), nodeServer(t, "server-filesystem"), root, nodeServer(t, "server-memory"))

	out := runTai(t, home, paste, "mcp", "add", "-", "--yes", "--enable")
	for _, name := range []string{"everything", "filesystem", "memory"} {
		if !strings.Contains(out, "registered MCP server "+name+" with ") {
			t.Fatalf("tai mcp add did not register %s:\n%s", name, out)
		}
	}
	list := runTai(t, home, "", "mcp", "list")
	if strings.Count(list, "all pinned") != 3 {
		t.Fatalf("tai mcp list:\n%s", list)
	}

	store, err := vault.Open(ctx, home, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	b := &bridge.Bridge{Store: store, Profile: vault.DefaultProfile}
	defer b.Close()

	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{
			{Name: "mcp_everything_echo", Arguments: llmtest.Chunks{`{"message":"through the bridge"}`}},
			{Name: "mcp_filesystem_read_text_file", Arguments: llmtest.Chunks{fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "big.txt"))}},
			{Name: "mcp_everything_get_env", Arguments: llmtest.Chunks{`{}`}},
			{Name: "mcp_memory_read_graph", Arguments: llmtest.Chunks{`{}`}},
		}},
		{Text: llmtest.Chunks{"done"}},
	}})
	reg := tools.NewRegistry(bridge.AgentTools()...)
	reg.Fallback = b
	env := &tools.Env{Dir: root, Store: store, Profile: vault.DefaultProfile, State: &tools.State{}}
	bridge.Attach(env, b)
	person := &consentLog{}
	ag := &agent.Agent{Client: srv.Client(t, "openai"), Tools: reg, Selector: offerAll{reg},
		Approver: &agent.Approver{Mode: profile.ApprovalAsk, Store: store, Profile: vault.DefaultProfile, Person: person},
		Env:      env}
	res, err := ag.RunTurn(ctx, "use the servers", agent.TurnOptions{})
	if err != nil || res.Text != "done" {
		t.Fatalf("turn: %+v %v", res, err)
	}

	want := "MCP everything/echo|MCP filesystem/read_text_file|MCP everything/get-env|MCP memory/read_graph"
	if got := strings.Join(person.titles, "|"); got != want {
		t.Fatalf("consent screens:\n got %s\nwant %s", got, want)
	}
	results := map[string]string{}
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == llm.RoleTool {
			results[m.Name] = m.Content
		}
	}
	if got := results["mcp_everything_echo"]; got != "Echo: through the bridge" {
		t.Errorf("echo: %q", got)
	}
	if got := results["mcp_filesystem_read_text_file"]; !strings.Contains(got, "spilled to record r") || len(got) > 8192 {
		t.Errorf("big read not spilled: %.300s", got)
	}
	env2 := results["mcp_everything_get_env"]
	if strings.Contains(env2, secret) || !strings.Contains(env2, "[secret:DEMO_TOKEN]") {
		t.Errorf("get-env leaked or did not redact the secret: %.500s", env2)
	}
	rows, _ := store.AuditEntries(ctx, vault.AuditQuery{Kind: "mcp-call"})
	var audit []string
	for _, r := range rows {
		audit = append(audit, r.Subject+"="+r.Outcome)
	}
	if got := strings.Join(audit, " "); got != "everything/echo=ok filesystem/read_text_file=ok everything/get-env=ok memory/read_graph=ok" {
		t.Errorf("audit: %s", got)
	}
}
