package selector_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tai/internal/catalog"
	"tai/internal/mcp/wire"
)

// The third blind evaluation set in testdata/blind3 (see its README.md)
// was written without looking at the selector, on servers that none of
// testdata/servers, testdata/unseen, testdata/blind and testdata/blind2
// uses. These tests check only that the data is sound: they do not run the
// selector on it.

// blind3Earlier are the folders of testdata holding the earlier sets'
// servers, which blind3 must not share a server or a package with.
var blind3Earlier = []string{"servers", filepath.Join("unseen", "servers"), filepath.Join("blind", "servers"), filepath.Join("blind2", "servers")}

var blind3Servers = filepath.Join("blind3", "servers")

func readBlind3Queries(t *testing.T) []query {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "blind3", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("testdata/blind3/queries.json: %v", err)
	}
	return qs
}

// blind3Catalogue counts, for each tool name of the whole catalogue (native
// tools and every captured server of all five sets), how many tools answer
// to it, and names the server of each bridged tool of testdata/blind3.
func blind3Catalogue(t *testing.T) (count map[string]int, blind3Server map[string]string) {
	t.Helper()
	count = map[string]int{}
	blind3Server = map[string]string{}
	for _, tool := range catalog.Native() {
		count[tool.Name]++
	}
	for _, dir := range append(append([]string(nil), blind3Earlier...), blind3Servers) {
		for _, c := range readCaptured(t, dir) {
			for _, tool := range c.Tools {
				name := bridgedName(c.Server, tool.Name)
				count[name]++
				if dir == blind3Servers {
					blind3Server[name] = c.Server
				}
			}
		}
	}
	return count, blind3Server
}

func TestBlind3Data_ServersAreNewAndEnough(t *testing.T) {
	known := map[string]string{}
	for _, dir := range blind3Earlier {
		for _, c := range readCaptured(t, dir) {
			known[c.Server] = dir
		}
	}
	servers := readCaptured(t, blind3Servers)
	if len(servers) < 20 {
		t.Errorf("testdata/blind3/servers has %d servers, want at least 20", len(servers))
	}
	for _, c := range servers {
		if dir, ok := known[c.Server]; ok {
			t.Errorf("blind3 server %q is also in testdata/%s", c.Server, dir)
		}
		if len(c.Tools) == 0 {
			t.Errorf("blind3 server %q has no tools", c.Server)
		}
	}
}

func TestBlind3Data_ServersUseNewPackages(t *testing.T) {
	// The package, not only the server's name, must be new: the same npm
	// package under another name would not be unseen. Two servers of this
	// set on one package would also be one server counted twice.
	read := func(dir string) map[string]string {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no captured servers in testdata/%s (%v)", dir, err)
		}
		out := map[string]string{} // server → package
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var p struct {
				Server  string `json:"server"`
				Package string `json:"package"`
			}
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[p.Server] = p.Package
		}
		return out
	}
	known := map[string]string{} // package → folder
	for _, dir := range blind3Earlier {
		for _, pkg := range read(dir) {
			known[pkg] = dir
		}
	}
	mine := map[string]string{} // package → server
	for server, pkg := range read(blind3Servers) {
		switch {
		case pkg == "":
			t.Errorf("blind3 server %q names no package", server)
		case known[pkg] != "":
			t.Errorf("blind3 server %q uses %s, which testdata/%s uses", server, pkg, known[pkg])
		case mine[pkg] != "":
			t.Errorf("blind3 servers %q and %q both use %s", server, mine[pkg], pkg)
		}
		mine[pkg] = server
	}
}

func TestBlind3Data_LabelsNameExistingTools(t *testing.T) {
	// A label must match exactly one tool of the whole catalogue, or the
	// bridge would have renamed it.
	count, _ := blind3Catalogue(t)
	qs := readBlind3Queries(t)
	if len(qs) < 150 {
		t.Errorf("queries.json has %d queries, want at least 150", len(qs))
	}
	checkLabels(t, qs, count)
}

func TestBlind3Data_LabelsAreOffered(t *testing.T) {
	// The bridge offers a server's first wire.MaxTools tools only: a label
	// past them could never be selected.
	labelled := map[string]string{} // label → a query naming it
	for _, q := range readBlind3Queries(t) {
		for _, label := range q.Tools {
			labelled[label] = q.Query
		}
	}
	for _, dir := range append(append([]string(nil), blind3Earlier...), blind3Servers) {
		for _, c := range readCaptured(t, dir) {
			for i := wire.MaxTools; i < len(c.Tools); i++ {
				name := bridgedName(c.Server, c.Tools[i].Name)
				if q, ok := labelled[name]; ok {
					t.Errorf("query %q names %s, tool %d of %s, past the %d the bridge offers", q, name, i+1, c.Server, wire.MaxTools)
				}
			}
		}
	}
}

func TestBlind3Data_Coverage(t *testing.T) {
	_, blind3Server := blind3Catalogue(t)
	native := map[string]bool{}
	for _, tool := range catalog.Native() {
		native[tool.Name] = true
	}
	perServer := map[string]int{}
	onBlind3, onNative := 0, 0
	for _, q := range readBlind3Queries(t) {
		servers := map[string]bool{}
		nat := false
		for _, name := range q.Tools {
			if s, ok := blind3Server[name]; ok {
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
			onBlind3++
		}
		if nat {
			onNative++
		}
	}
	if onBlind3 < 110 {
		t.Errorf("%d queries need a tool of a blind3 server, want at least 110", onBlind3)
	}
	if onNative < 45 {
		t.Errorf("%d queries need a native tool, want at least 45", onNative)
	}
	for _, c := range readCaptured(t, blind3Servers) {
		if perServer[c.Server] < 3 {
			t.Errorf("blind3 server %q has %d queries, want at least 3", c.Server, perServer[c.Server])
		}
	}
}
