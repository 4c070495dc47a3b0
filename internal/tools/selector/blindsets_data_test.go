package selector_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"tai/internal/catalog"
	"tai/internal/mcp/wire"
)

// The blind evaluation sets (testdata/blind, testdata/blind2,
// testdata/blind3, testdata/blind4, testdata/blind5, testdata/blind6; see
// each README.md)
// were written without looking at the selector, each on servers that none
// of the sets before it uses. These tests check only
// that the data is sound: they do not run the selector on it.

// toolLabel is a tool name as tai gives it: lower case, digits and underscores.
var toolLabel = regexp.MustCompile(`^[a-z0-9_]+$`)

// serverFolders are the folders of testdata holding each set's captured
// servers, in the order the sets were written; the catalogue of a set is
// its own servers and every folder before it.
var serverFolders = []string{"servers", filepath.Join("unseen", "servers"),
	filepath.Join("blind", "servers"), filepath.Join("blind2", "servers"),
	filepath.Join("blind3", "servers"), filepath.Join("blind4", "servers"),
	filepath.Join("blind5", "servers"), filepath.Join("blind6", "servers")}

// blindSets names the blind sets; set i's servers are serverFolders[i+2].
var blindSets = []string{"blind", "blind2", "blind3", "blind4", "blind5", "blind6"}

// setMinimum is how much a blind set must hold: queries, servers, queries
// on its own servers, queries on each of them, and queries on native tools.
type setMinimum struct{ queries, servers, onOwn, perServer, onNative int }

// minimumOf gives each set's minimums: the first five were written to
// 150 queries, 20 servers, 110 queries on them with three each and 45 on
// native tools; blind6 to 200, 22, 140 with four each, and 55.
func minimumOf(set string) setMinimum {
	if set == "blind6" {
		return setMinimum{queries: 200, servers: 22, onOwn: 140, perServer: 4, onNative: 55}
	}
	return setMinimum{queries: 150, servers: 20, onOwn: 110, perServer: 3, onNative: 45}
}

// eachBlindSet runs check for every blind set: its name, its servers'
// folder, and the folders of the sets before it.
func eachBlindSet(t *testing.T, check func(t *testing.T, set, servers string, earlier []string)) {
	for i, set := range blindSets {
		t.Run(set, func(t *testing.T) { check(t, set, serverFolders[i+2], serverFolders[:i+2]) })
	}
}

func readSetQueries(t *testing.T, set string) []query {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", set, "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("testdata/%s/queries.json: %v", set, err)
	}
	return qs
}

// setCatalogue counts, for each tool name of a set's whole catalogue
// (native tools, its own servers and every earlier set's), how many tools
// answer to it, and names the server of each bridged tool of its own.
func setCatalogue(t *testing.T, servers string, earlier []string) (count map[string]int, own map[string]string) {
	t.Helper()
	count, own = map[string]int{}, map[string]string{}
	for _, tool := range catalog.Native() {
		count[tool.Name]++
	}
	for _, dir := range append(append([]string(nil), earlier...), servers) {
		for _, c := range readCaptured(t, dir) {
			for _, tool := range c.Tools {
				name := bridgedName(c.Server, tool.Name)
				count[name]++
				if dir == servers {
					own[name] = c.Server
				}
			}
		}
	}
	return count, own
}

func TestBlindData_ServersAreNewAndEnough(t *testing.T) {
	eachBlindSet(t, func(t *testing.T, set, servers string, earlier []string) {
		known := map[string]string{}
		for _, dir := range earlier {
			for _, c := range readCaptured(t, dir) {
				known[c.Server] = dir
			}
		}
		mine := readCaptured(t, servers)
		if want := minimumOf(set).servers; len(mine) < want {
			t.Errorf("testdata/%s has %d servers, want at least %d", servers, len(mine), want)
		}
		for _, c := range mine {
			if dir, ok := known[c.Server]; ok {
				t.Errorf("%s server %q is also in testdata/%s", set, c.Server, dir)
			}
			if len(c.Tools) == 0 {
				t.Errorf("%s server %q has no tools", set, c.Server)
			}
		}
	})
}

func TestBlindData_ServersUseNewPackages(t *testing.T) {
	// The package, not only the server's name, must be new: the same npm
	// package under another name would not be unseen. Two servers of one
	// set on one package would also be one server counted twice.
	read := func(t *testing.T, dir string) map[string]string {
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
	eachBlindSet(t, func(t *testing.T, set, servers string, earlier []string) {
		known := map[string]string{} // package → folder
		for _, dir := range earlier {
			for _, pkg := range read(t, dir) {
				known[pkg] = dir
			}
		}
		mine := map[string]string{} // package → server
		for server, pkg := range read(t, servers) {
			switch {
			case pkg == "":
				t.Errorf("%s server %q names no package", set, server)
			case known[pkg] != "":
				t.Errorf("%s server %q uses %s, which testdata/%s uses", set, server, pkg, known[pkg])
			case mine[pkg] != "":
				t.Errorf("%s servers %q and %q both use %s", set, server, mine[pkg], pkg)
			}
			mine[pkg] = server
		}
	})
}

func TestBlindData_LabelsNameExistingTools(t *testing.T) {
	// A label must match exactly one tool of the whole catalogue, or the
	// bridge would have renamed it.
	eachBlindSet(t, func(t *testing.T, set, servers string, earlier []string) {
		count, _ := setCatalogue(t, servers, earlier)
		qs := readSetQueries(t, set)
		if want := minimumOf(set).queries; len(qs) < want {
			t.Errorf("%s/queries.json has %d queries, want at least %d", set, len(qs), want)
		}
		checkLabels(t, qs, count)
	})
}

func TestBlindData_LabelsAreOffered(t *testing.T) {
	// The bridge offers a server's first wire.MaxTools tools only: a label
	// past them could never be selected.
	eachBlindSet(t, func(t *testing.T, set, servers string, earlier []string) {
		labelled := map[string]string{} // label → a query naming it
		for _, q := range readSetQueries(t, set) {
			for _, label := range q.Tools {
				labelled[label] = q.Query
			}
		}
		for _, dir := range append(append([]string(nil), earlier...), servers) {
			for _, c := range readCaptured(t, dir) {
				for i := wire.MaxTools; i < len(c.Tools); i++ {
					name := bridgedName(c.Server, c.Tools[i].Name)
					if q, ok := labelled[name]; ok {
						t.Errorf("query %q names %s, tool %d of %s, past the %d the bridge offers", q, name, i+1, c.Server, wire.MaxTools)
					}
				}
			}
		}
	})
}

func TestBlindData_Coverage(t *testing.T) {
	native := map[string]bool{}
	for _, tool := range catalog.Native() {
		native[tool.Name] = true
	}
	eachBlindSet(t, func(t *testing.T, set, servers string, earlier []string) {
		_, own := setCatalogue(t, servers, earlier)
		perServer := map[string]int{}
		onOwn, onNative := 0, 0
		for _, q := range readSetQueries(t, set) {
			hit := map[string]bool{}
			nat := false
			for _, name := range q.Tools {
				if s, ok := own[name]; ok {
					hit[s] = true
				}
				nat = nat || native[name]
			}
			for s := range hit {
				perServer[s]++
			}
			if len(hit) > 0 {
				onOwn++
			}
			if nat {
				onNative++
			}
		}
		least := minimumOf(set)
		if onOwn < least.onOwn {
			t.Errorf("%d queries need a tool of a %s server, want at least %d", onOwn, set, least.onOwn)
		}
		if onNative < least.onNative {
			t.Errorf("%d queries need a native tool, want at least %d", onNative, least.onNative)
		}
		for _, c := range readCaptured(t, servers) {
			if perServer[c.Server] < least.perServer {
				t.Errorf("%s server %q has %d queries, want at least %d", set, c.Server, perServer[c.Server], least.perServer)
			}
		}
	})
}

// wholeSets are blind sets written over the whole captured catalogue (every
// folder of serverFolders) with no servers of their own: they measure
// wording, not new servers (testdata/blind7/README.md, testdata/blind8/README.md,
// testdata/blind9/README.md, testdata/blind10/README.md,
// testdata/blind11/README.md). The last is the newest, never tuned on.
var wholeSets = []string{"blind7", "blind8", "blind9", "blind10", "blind11"}

// wholeMinimum is how many of a whole set's queries need a native tool and
// how many have steps, at the least: blind8 is the smaller set.
var wholeMinimum = map[string][2]int{"blind7": {55, 25}, "blind8": {40, 20}, "blind9": {45, 20}, "blind10": {45, 20}, "blind11": {45, 20}}

func TestBlindData_WholeCatalogueSets(t *testing.T) {
	native := map[string]bool{}
	for _, tool := range catalog.Native() {
		native[tool.Name] = true
	}
	for _, set := range wholeSets {
		t.Run(set, func(t *testing.T) {
			count, _ := setCatalogue(t, serverFolders[len(serverFolders)-1], serverFolders[:len(serverFolders)-1])
			qs := readSetQueries(t, set)
			if len(qs) < 200 {
				t.Errorf("%s/queries.json has %d queries, want at least 200", set, len(qs))
			}
			checkLabels(t, qs, count)
			onNative, steps := 0, 0
			for _, q := range qs {
				if slices.ContainsFunc(q.Tools, func(n string) bool { return native[n] }) {
					onNative++
				}
				if len(q.Steps) == 0 {
					continue
				}
				steps++
				if !slices.Equal(q.Steps[0], q.Tools) {
					t.Errorf("%q: its tools %v are not its first step's %v", q.Query, q.Tools, q.Steps[0])
				}
				for _, step := range q.Steps {
					checkLabels(t, []query{{Query: q.Query, Tools: step}}, count)
				}
			}
			if least := wholeMinimum[set]; onNative < least[0] || steps < least[1] {
				t.Errorf("%s: %d queries need a native tool and %d have steps; want at least %d and %d", set, onNative, steps, least[0], least[1])
			}
		})
	}
}
