package vault

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Filters belong to one profile, replace each other by item, and go with
// their server.
func TestMCPFilters_PerProfileAndRemovedWithTheServer(t *testing.T) {
	ctx := context.Background()
	s := openEverything(t)
	if err := s.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	echo := MCPFilter{Server: "everything", Kind: FilterTool, Name: "echo"}
	doc := MCPFilter{Server: "everything", Kind: FilterResource, Name: "file:///doc.md"}
	if err := s.SetMCPFilters(ctx, DefaultProfile, []MCPFilter{echo, doc}, nil); err != nil {
		t.Fatal(err)
	}
	echo.Enabled = true
	if err := s.SetMCPFilters(ctx, DefaultProfile, []MCPFilter{echo}, []MCPFilter{doc}); err != nil {
		t.Fatal(err)
	}
	got, err := s.MCPFilters(ctx, DefaultProfile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]MCPFilter{echo}, got); diff != "" {
		t.Errorf("default's filters (-want +got):\n%s", diff)
	}
	if other, _ := s.MCPFilters(ctx, "work"); len(other) != 0 {
		t.Errorf("profile work has filters %v", other)
	}
	if err := s.RemoveMCPServer(ctx, "everything"); err != nil {
		t.Fatal(err)
	}
	if left, _ := s.MCPFilters(ctx, DefaultProfile); len(left) != 0 {
		t.Errorf("removing the server left filters %v", left)
	}
}

// One bad filter stores none of them.
func TestMCPFilters_BadInputStoresNothing(t *testing.T) {
	ctx := context.Background()
	s := openEverything(t)
	gen, _ := s.MCPGeneration(ctx)
	good := MCPFilter{Server: "everything", Kind: FilterTool, Name: "echo"}
	for _, c := range []struct {
		profile string
		bad     MCPFilter
		want    string
	}{
		{DefaultProfile, MCPFilter{Server: "nowhere", Kind: FilterTool, Name: "x"}, `MCP server "nowhere": not found`},
		{DefaultProfile, MCPFilter{Server: "everything", Kind: "widget", Name: "x"}, `filter kind "widget"`},
		{"nobody", good, `profile "nobody" does not exist`},
	} {
		err := s.SetMCPFilters(ctx, c.profile, []MCPFilter{good, c.bad}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	if got, _ := s.MCPFilters(ctx, DefaultProfile); len(got) != 0 {
		t.Errorf("stored %v", got)
	}
	if now, _ := s.MCPGeneration(ctx); now != gen {
		t.Errorf("the generation moved from %s to %s", gen, now)
	}
}
