package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/config"
	"tai/internal/mcp/mcptest"
	"tai/internal/tools"
	"tai/internal/vault"
)

// The bridge registers a server (after the person's consent, here given
// by a function), pins its tools, and offers each as a tai tool that goes
// through tools.Invoke like any other. The server is this test binary
// acting as the scripted fake server (mcptest), over stdio.
func Example() {
	ctx := context.Background()
	home, err := os.MkdirTemp("", "bridge-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(home)
	s, err := vault.Open(ctx, home, vault.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	b := &bridge.Bridge{Store: s, Profile: vault.DefaultProfile}
	defer b.Close()

	entry := config.Entry{Name: "demo", Transport: config.Stdio, Command: os.Args[0], Env: mcptest.Env("echo"), Source: config.SourceExplicit}
	consent := func(_ context.Context, c tools.Consent, _ bool) (approve, enable bool, err error) {
		title, _, _ := strings.Cut(c.Title, ": run ") // the command is this test binary's path
		fmt.Println("asked:", title)
		return true, true, nil
	}
	added, err := b.Add(ctx, bridge.AddRequest{Entries: []config.Entry{entry}}, consent, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("registered:", added[0].Name, "with", len(added[0].Tools), "tool, enabled:", added[0].Enabled)

	echo := b.BridgedTool(ctx, "demo", "echo")
	out, err := tools.Invoke(ctx, echo, tools.Call{Args: json.RawMessage(`{"message":"hi"}`), Env: &tools.Env{Store: s, Profile: vault.DefaultProfile}},
		tools.Via{Origin: vault.OriginCLI})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s: %s\n", echo.Name, out.Status, out.Text)
	// Output:
	// asked: MCP server demo (register)
	// registered: demo with 1 tool, enabled: true
	// mcp_demo_echo ok: hi
}
