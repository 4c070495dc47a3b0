package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"tai/internal/mcp/mcptest"
	"tai/internal/tools"
)

// multiPaste is an mcpServers paste of fake servers; an entry whose value
// is "missing" references a variable that resolves nowhere, and one named
// "broken" runs a command that exits at once.
func multiPaste(t *testing.T, names ...string) string {
	servers := map[string]any{}
	for _, n := range names {
		env := mcptest.Env("ping")
		switch n {
		case "missing":
			env["TOKEN"] = "${NOWHERE_TOKEN}"
		case "broken":
			servers[n] = map[string]any{"command": "/bin/false"}
			continue
		}
		servers[n] = map[string]any{"command": os.Args[0], "env": env}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A multi-server paste with a bad entry in the middle: each entry gets its
// own consent and outcome, the servers after a decline, a missing variable
// or a failed start are still offered, and the error sums up which were
// stored and why the others were not.
func TestAdd_MultiServerPasteGoesOnPastBadEntries(t *testing.T) {
	f := newFixture(t)
	var asked []string
	consent := func(_ context.Context, c tools.Consent, _ bool) (bool, bool, error) {
		name := strings.Fields(strings.TrimPrefix(c.Title, "MCP server "))[0]
		asked = append(asked, name)
		return name != "declined", false, nil
	}
	src := multiPaste(t, "a-first", "broken", "declined", "missing", "z-last")
	added, err := f.b.Add(context.Background(), AddRequest{Source: src}, consent, nil)
	var ns *NotStoredError
	if !errors.As(err, &ns) {
		t.Fatalf("err = %v, want a NotStoredError", err)
	}
	want := "2 of 5 MCP servers stored (a-first, z-last); not stored: broken (did not start), declined (declined), missing (missing ${NOWHERE_TOKEN})"
	if err.Error() != want {
		t.Errorf("summary:\n got %s\nwant %s", err, want)
	}
	if got := strings.Join(asked, ","); got != "a-first,broken,declined,z-last" {
		t.Errorf("consent asked for %s", got)
	}
	if len(added) != 5 {
		t.Fatalf("%d outcomes", len(added))
	}
	stored, _ := f.store.MCPServerNames(context.Background())
	if strings.Join(stored, ",") != "a-first,z-last" {
		t.Errorf("stored %v", stored)
	}
	out := FormatAdded(added, "default")
	for _, w := range []string{"registered MCP server a-first", "registered MCP server z-last", "not stored: MCP server declined not registered: declined",
		"not stored: server missing cannot start: ${NOWHERE_TOKEN} is not set"} {
		if !strings.Contains(out, w) {
			t.Errorf("FormatAdded lacks %q:\n%s", w, out)
		}
	}
}

// --name picks servers out of a paste.
func TestAdd_NameSelectsFromAPaste(t *testing.T) {
	f := newFixture(t)
	added, err := f.b.Add(context.Background(), AddRequest{Source: multiPaste(t, "one", "two", "three"), Name: "two"}, yes(false), nil)
	if err != nil || len(added) != 1 || added[0].Name != "two" {
		t.Fatalf("%v %+v", err, added)
	}
}
