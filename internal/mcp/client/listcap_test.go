package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tai/internal/mcp/wire"
)

// A server listing past a listing cap over many pages (50 are on offer)
// is read only until the page that passes it, and the error names the cap
// and its value.
func TestClient_ListToolsStopsAtTheListingCaps(t *testing.T) {
	for _, c := range []struct {
		script, cap, value string
		pages              int // tools/list requests the server may see at most
	}{
		{"many-tools", "MCP_MAX_LISTED_TOOLS", "1000", 3},
		{"fat-pages", "MCP_MAX_LIST_BYTES", "4MiB", 5},
		{"fat-tool", "MCP_MAX_TOOL_BYTES", "64KiB", 1},
	} {
		t.Run(c.script, func(t *testing.T) {
			checkLeaks(t)
			f := newHTTPFake(t, c.script, false)
			client := connectHTTP(t, f, Options{})
			tools, err := client.ListTools(context.Background())
			var ce *ListCapError
			if !errors.As(err, &ce) || ce.Cap != c.cap || tools != nil {
				t.Fatalf("got %d tools, err %v; want a %s error", len(tools), err, c.cap)
			}
			if !strings.Contains(err.Error(), c.cap+" = "+c.value) {
				t.Errorf("the error does not give the cap's value: %v", err)
			}
			if k, _ := wire.Lookup(c.cap); k.Value != c.value {
				t.Errorf("%s is %q in the cap table", c.cap, k.Value)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if pages := f.posts(wire.MethodToolsList); pages > c.pages {
				t.Errorf("the client asked for %d pages; it should stop by page %d", pages, c.pages)
			}
		})
	}
}

// A list of exactly MCP_MAX_LISTED_TOOLS tools over several pages is
// accepted whole.
func TestClient_ListToolsAtTheCap(t *testing.T) {
	checkLeaks(t)
	client := connectHTTP(t, newHTTPFake(t, "thousand", false), Options{})
	tools, err := client.ListTools(context.Background())
	if err != nil || len(tools) != wire.MaxListedTools {
		t.Fatalf("%d tools, %v", len(tools), err)
	}
	if tools[999].Name != "t3_249" || len(tools[999].Raw) == 0 {
		t.Fatalf("the last tool is %+v", tools[999])
	}
}
