package selector_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/tools/catalog"
)

// The held-out evaluation set in testdata/unseen (see its README.md) was
// written without looking at the selector. These tests check only that the
// data is sound: they do not run the selector on it.

// unseenQuery is one line of testdata/unseen/queries.json.
type unseenQuery struct {
	Query string   `json:"query"`
	Tools []string `json:"tools"`
}

// capturedServer is the part of a captured tool list these tests read.
type capturedServer struct {
	Server string `json:"server"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// bridgedName is the name tai's bridge gives a server's tool when it is
// short enough to need no hash: mcp_<server>_<tool>, lower-cased, with
// everything outside [a-z0-9_] turned into '_'.
func bridgedName(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
				return r
			}
			return '_'
		}, strings.ToLower(s))
	}
	return "mcp_" + clean(server) + "_" + clean(tool)
}

func readCaptures(t *testing.T, dir string) []capturedServer {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []capturedServer
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c capturedServer
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if c.Server+".json" != filepath.Base(f) {
			t.Errorf("%s: captured server is named %q", f, c.Server)
		}
		out = append(out, c)
	}
	return out
}

func readUnseenQueries(t *testing.T) []unseenQuery {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "unseen", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []unseenQuery
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("testdata/unseen/queries.json: %v", err)
	}
	return qs
}

func TestUnseenData_ServersAreNewAndEnough(t *testing.T) {
	known := map[string]bool{}
	for _, c := range readCaptures(t, filepath.Join("testdata", "servers")) {
		known[c.Server] = true
	}
	unseen := readCaptures(t, filepath.Join("testdata", "unseen", "servers"))
	if len(unseen) < 12 {
		t.Errorf("testdata/unseen/servers has %d servers, want at least 12", len(unseen))
	}
	for _, c := range unseen {
		if known[c.Server] {
			t.Errorf("unseen server %q is also in testdata/servers", c.Server)
		}
		if len(c.Tools) == 0 {
			t.Errorf("unseen server %q has no tools", c.Server)
		}
	}
}

func TestUnseenData_LabelsNameExistingTools(t *testing.T) {
	// How many tools of the whole catalogue answer to each name: a label
	// must match exactly one, or the bridge would have renamed it.
	count := map[string]int{}
	for _, tool := range catalog.Native() {
		count[tool.Name]++
	}
	for _, dir := range []string{filepath.Join("testdata", "servers"), filepath.Join("testdata", "unseen", "servers")} {
		for _, c := range readCaptures(t, dir) {
			for _, tool := range c.Tools {
				count[bridgedName(c.Server, tool.Name)]++
			}
		}
	}
	qs := readUnseenQueries(t)
	if len(qs) < 150 {
		t.Errorf("queries.json has %d queries, want at least 150", len(qs))
	}
	seen := map[string]bool{}
	for i, q := range qs {
		text := strings.TrimSpace(q.Query)
		if text == "" {
			t.Errorf("query %d is empty", i+1)
		}
		if seen[text] {
			t.Errorf("query %d repeats %q", i+1, text)
		}
		seen[text] = true
		if len(q.Tools) == 0 {
			t.Errorf("query %d (%q) has no tools", i+1, text)
		}
		labels := map[string]bool{}
		for _, name := range q.Tools {
			switch {
			case labels[name]:
				t.Errorf("query %d (%q) names %s twice", i+1, text, name)
			case len(name) > 64:
				t.Errorf("query %d (%q): %s is longer than a bridged name can be", i+1, text, name)
			case count[name] == 0:
				t.Errorf("query %d (%q): no tool is named %s", i+1, text, name)
			case count[name] > 1:
				t.Errorf("query %d (%q): %d tools are named %s", i+1, text, count[name], name)
			}
			labels[name] = true
		}
	}
}
