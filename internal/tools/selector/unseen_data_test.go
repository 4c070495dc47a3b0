package selector_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/catalog"
)

// The held-out evaluation set in testdata/unseen (see its README.md) was
// written without looking at the selector. These tests check only that the
// data is sound: they do not run the selector on it.

func readUnseenQueries(t *testing.T) []query {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "unseen", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("testdata/unseen/queries.json: %v", err)
	}
	return qs
}

func TestUnseenData_ServersAreNewAndEnough(t *testing.T) {
	known := map[string]bool{}
	for _, c := range readCaptured(t, "servers") {
		known[c.Server] = true
	}
	unseen := readCaptured(t, filepath.Join("unseen", "servers"))
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
	for _, dir := range []string{"servers", filepath.Join("unseen", "servers")} {
		for _, c := range readCaptured(t, dir) {
			for _, tool := range c.Tools {
				count[bridgedName(c.Server, tool.Name)]++
			}
		}
	}
	qs := readUnseenQueries(t)
	if len(qs) < 150 {
		t.Errorf("queries.json has %d queries, want at least 150", len(qs))
	}
	checkLabels(t, qs, count)
}

// checkLabels checks a labelled set against the catalogue's name counts:
// every query is non-empty and unique, names at least one tool, and each
// label is a name as tai gives it that exactly one tool of the catalogue
// answers to (more would mean the bridge renamed it).
func checkLabels(t *testing.T, qs []query, count map[string]int) {
	t.Helper()
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
			case !toolLabel.MatchString(name):
				t.Errorf("query %d (%q): %s is not a tool name as tai gives it", i+1, text, name)
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
