package vault

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A server's prompts are stored with its registration, in the server's
// order, each with its pin; replacing them keeps what is given, and
// removing the server removes them.
func TestMCP_PromptsStoredReplacedAndRemoved(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	reg := everything()
	reg.Prompts = []MCPPrompt{
		{Prompt: "greet", Definition: `{"name":"greet"}`, Hash: "g1", Pin: MCPPin{Hash: "g1", Definition: `{"name":"greet"}`}},
		{Prompt: "abc", Definition: `{"name":"abc"}`, Hash: "a1", Pin: MCPPin{Hash: "a1"}},
	}
	if err := s.RegisterMCPServer(ctx, reg); err != nil {
		t.Fatal(err)
	}
	got, err := s.MCPPrompts(ctx, "everything")
	if err != nil || len(got) != 2 || got[0].Prompt != "greet" || got[0].Pending() || got[0].Pin.Definition != `{"name":"greet"}` {
		t.Fatalf("prompts %+v %v", got, err)
	}
	gen, _ := s.MCPGeneration(ctx)
	if err := s.ReplaceMCPPrompts(ctx, "everything", []MCPPrompt{{Prompt: "abc", Hash: "a2", Pin: MCPPin{Hash: "a1"}}}); err != nil {
		t.Fatal(err)
	}
	if now, _ := s.MCPGeneration(ctx); now == gen {
		t.Error("replacing prompts did not bump the MCP generation")
	}
	got, _ = s.MCPPrompts(ctx)
	var names []string
	for _, p := range got {
		names = append(names, p.Prompt)
	}
	if diff := cmp.Diff([]string{"abc"}, names); diff != "" || !got[0].Pending() {
		t.Fatalf("after replace (-want +got):\n%s %+v", diff, got)
	}
	if err := s.RemoveMCPServer(ctx, "everything"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.MCPPrompts(ctx); len(got) != 0 {
		t.Fatalf("prompts outlived their server: %+v", got)
	}
}
