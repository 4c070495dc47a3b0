package selector_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"tai/internal/catalog"
)

// The blind evaluation set in testdata/blind (see its README.md) was
// written without looking at the selector, on servers that neither
// testdata/servers nor testdata/unseen uses. These tests check only that
// the data is sound: they do not run the selector on it.

// toolLabel is a tool name as tai gives it: lower case, digits and underscores.
var toolLabel = regexp.MustCompile(`^[a-z0-9_]+$`)

func readBlindQueries(t *testing.T) []query {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "blind", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("testdata/blind/queries.json: %v", err)
	}
	return qs
}

// blindCatalogue counts, for each tool name of the whole catalogue (native
// tools and every captured server), how many tools answer to it, and names
// the server of each bridged tool of testdata/blind/servers.
func blindCatalogue(t *testing.T) (count map[string]int, blindServer map[string]string) {
	t.Helper()
	count = map[string]int{}
	blindServer = map[string]string{}
	for _, tool := range catalog.Native() {
		count[tool.Name]++
	}
	for _, dir := range []string{"servers", filepath.Join("unseen", "servers"), filepath.Join("blind", "servers")} {
		for _, c := range readCaptured(t, dir) {
			for _, tool := range c.Tools {
				name := bridgedName(c.Server, tool.Name)
				count[name]++
				if dir == filepath.Join("blind", "servers") {
					blindServer[name] = c.Server
				}
			}
		}
	}
	return count, blindServer
}

func TestBlindData_ServersAreNewAndEnough(t *testing.T) {
	known := map[string]string{}
	for _, dir := range []string{"servers", filepath.Join("unseen", "servers")} {
		for _, c := range readCaptured(t, dir) {
			known[c.Server] = dir
		}
	}
	blind := readCaptured(t, filepath.Join("blind", "servers"))
	if len(blind) < 20 {
		t.Errorf("testdata/blind/servers has %d servers, want at least 20", len(blind))
	}
	for _, c := range blind {
		if dir, ok := known[c.Server]; ok {
			t.Errorf("blind server %q is also in testdata/%s", c.Server, dir)
		}
		if len(c.Tools) == 0 {
			t.Errorf("blind server %q has no tools", c.Server)
		}
	}
}

func TestBlindData_ServersUseNewPackages(t *testing.T) {
	// The package, not only the server's name, must be new: the same npm
	// package under another name would not be unseen.
	type pkg struct {
		Server  string `json:"server"`
		Package string `json:"package"`
	}
	read := func(dir string) []pkg {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no captured servers in testdata/%s (%v)", dir, err)
		}
		var out []pkg
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var p pkg
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, p)
		}
		return out
	}
	known := map[string]bool{}
	for _, dir := range []string{"servers", filepath.Join("unseen", "servers")} {
		for _, p := range read(dir) {
			known[p.Package] = true
		}
	}
	for _, p := range read(filepath.Join("blind", "servers")) {
		if p.Package == "" {
			t.Errorf("blind server %q names no package", p.Server)
		}
		if known[p.Package] {
			t.Errorf("blind server %q uses %s, which an earlier set uses", p.Server, p.Package)
		}
	}
}

func TestBlindData_LabelsNameExistingTools(t *testing.T) {
	// A label must match exactly one tool of the whole catalogue, or the
	// bridge would have renamed it.
	count, _ := blindCatalogue(t)
	qs := readBlindQueries(t)
	if len(qs) < 150 {
		t.Errorf("queries.json has %d queries, want at least 150", len(qs))
	}
	checkLabels(t, qs, count)
}

func TestBlindData_Coverage(t *testing.T) {
	_, blindServer := blindCatalogue(t)
	native := map[string]bool{}
	for _, tool := range catalog.Native() {
		native[tool.Name] = true
	}
	perServer := map[string]int{}
	onBlind, onNative := 0, 0
	for _, q := range readBlindQueries(t) {
		servers := map[string]bool{}
		nat := false
		for _, name := range q.Tools {
			if s, ok := blindServer[name]; ok {
				servers[s] = true
			}
			if native[name] {
				nat = true
			}
		}
		for s := range servers {
			perServer[s]++
		}
		if len(servers) > 0 {
			onBlind++
		}
		if nat {
			onNative++
		}
	}
	if onBlind < 110 {
		t.Errorf("%d queries need a tool of a blind server, want at least 110", onBlind)
	}
	if onNative < 45 {
		t.Errorf("%d queries need a native tool, want at least 45", onNative)
	}
	for _, c := range readCaptured(t, filepath.Join("blind", "servers")) {
		if perServer[c.Server] < 3 {
			t.Errorf("blind server %q has %d queries, want at least 3", c.Server, perServer[c.Server])
		}
	}
}
