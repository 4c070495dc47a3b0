package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"tai/internal/mcp/client"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// manyServers registers n servers of m cached tools each, enabled, as a
// person with a large setup would have; none of them can be started.
func manyServers(tb testing.TB, s *vault.Store, n, m int, command string) {
	tb.Helper()
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("srv%02d", i)
		var listed []wire.Tool
		for j := range m {
			listed = append(listed, wire.Tool{Name: fmt.Sprintf("tool_%03d", j),
				Description: fmt.Sprintf("Does thing %d of server %d with some words about files and issues", j, i),
				InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}}}`)})
		}
		reg := Registration(vault.MCPServer{Name: name, Transport: "stdio", Command: command, Args: []string{name}, Source: "explicit"}, listed)
		reg.Enable = []string{vault.DefaultProfile}
		if err := s.RegisterMCPServer(ctx, reg); err != nil {
			tb.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) *vault.Store {
	s := openStore(b)
	manyServers(b, s, 32, 100, "/nonexistent/never-started")
	return s
}

// BenchmarkList_32x100 is `tai mcp list` with 32 servers of 100 tools: the
// catalogue view is built from the vault and summarised; nothing starts.
func BenchmarkList_32x100(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		br := &Bridge{Store: s, Profile: vault.DefaultProfile}
		list, err := br.Servers(context.Background())
		if err != nil || len(list) != 32 {
			b.Fatal(len(list), err)
		}
	}
}

// BenchmarkFirstStepTools_32x100 is what an agent's first step pays for the
// bridged catalogue: a fresh bridge lists its 3,200 tools.
func BenchmarkFirstStepTools_32x100(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		br := &Bridge{Store: s, Profile: vault.DefaultProfile}
		if n := len(br.Tools()); n != 3200 {
			b.Fatal(n)
		}
	}
}

// BenchmarkTools_Cached is a later step: the view is current.
func BenchmarkTools_Cached(b *testing.B) {
	s := benchStore(b)
	br := &Bridge{Store: s, Profile: vault.DefaultProfile}
	br.Tools()
	for b.Loop() {
		if n := len(br.Tools()); n != 3200 {
			b.Fatal(n)
		}
	}
}

// BenchmarkEagerConnect_32 is what connecting to every server at start-up
// costs, as other agents do: 32 stdio servers (the test binary re-executed
// as a trivial MCP server, far faster to start than a real one) spawned,
// handshaken and listed concurrently, then closed.
func BenchmarkEagerConnect_32(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		errs := make(chan error, 32)
		for i := range 32 {
			go func() {
				c, err := client.Connect(ctx, client.Options{Transport: client.Stdio{Command: os.Args[0],
					Env: mcptest.Env(fmt.Sprintf("tool_%d", i))}})
				if err == nil {
					_, err = c.ListTools(ctx)
					c.Close()
				}
				errs <- err
			}()
		}
		for range 32 {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
	}
}
