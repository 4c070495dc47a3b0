package selector_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"tai/internal/catalog"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

// captured is one file of testdata/servers, written by devtools/capture.
type captured struct {
	Server string `json:"server"`
	Tools  []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
}

// readCaptured reads the servers captured in a folder of testdata (or
// at an absolute path), in file name order. Each file must be named after
// its server.
func readCaptured(tb testing.TB, dir string) []captured {
	tb.Helper()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("testdata", dir)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no captured servers in %s (%v)", dir, err)
	}
	var out []captured
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var c captured
		if err := json.Unmarshal(b, &c); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if c.Server+".json" != filepath.Base(f) {
			tb.Fatalf("%s: captured server is named %q", f, c.Server)
		}
		out = append(out, c)
	}
	return out
}

// capturedTools reads every server captured in the folders of testdata
// given, as the vault caches them: ordered by server, then by the server's
// own order.
func capturedTools(tb testing.TB, dirs ...string) []vault.MCPTool {
	tb.Helper()
	var servers []captured
	for _, dir := range dirs {
		servers = append(servers, readCaptured(tb, dir)...)
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].Server < servers[j].Server })
	var out []vault.MCPTool
	for _, c := range servers {
		for i, t := range c.Tools {
			out = append(out, vault.MCPTool{Server: c.Server, Tool: t.Name, Description: t.Description, Schema: t.InputSchema, Position: i})
		}
	}
	return out
}

// benchCatalogue is the benchmark's catalogue: tai's native tools followed
// by the tools of the servers captured in testdata/servers, as the
// registry lists them.
func benchCatalogue(tb testing.TB) []*tools.Tool { return catalogueOf(tb, "servers") }

// unseenCatalogue adds the servers of the held-out set written blind to
// the selector (testdata/unseen) to benchCatalogue.
func unseenCatalogue(tb testing.TB) []*tools.Tool {
	return catalogueOf(tb, "servers", filepath.Join("unseen", "servers"))
}

func catalogueOf(tb testing.TB, dirs ...string) []*tools.Tool {
	reg := tools.NewRegistry(catalog.Native()...)
	reg.Fallback = tooltest.Source(bridged(capturedTools(tb, dirs...)))
	return reg.All()
}

// bridged builds the tools the MCP bridge offers for cached tool lists:
// mcp_<server>_<tool> sanitized to [a-z0-9_], description and schema
// passed through, and a server's tools past MCP_MAX_TOOLS listed but
// Unoffered. The captured names are short and distinct, so the bridge's
// namer (length cap, collision suffixes) names them the same.
func bridged(cached []vault.MCPTool) []*tools.Tool {
	out := make([]*tools.Tool, 0, len(cached))
	perServer := map[string]int{}
	for _, c := range cached {
		schema := c.Schema
		if len(schema) == 0 || schema[0] != '{' {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out = append(out, &tools.Tool{Name: bridgedName(c.Server, c.Tool),
			Description: c.Description, Schema: schema, Group: "mcp", Server: c.Server, Remote: c.Tool,
			Unoffered: perServer[c.Server] >= wire.MaxTools})
		perServer[c.Server]++
	}
	return out
}

// bridgedName is the name tai's bridge gives a server's tool when it is
// short enough to need no hash: mcp_<server>_<tool>, lower-cased, with
// everything outside [a-z0-9_] turned into '_'.
func bridgedName(server, tool string) string {
	return "mcp_" + sanitize(server) + "_" + sanitize(tool)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}

// syntheticCatalogue grows the benchmark catalogue to n tools by repeating
// the captured servers under new server names, so the vocabulary and the
// spec sizes stay those of real servers.
func syntheticCatalogue(tb testing.TB, n int) []*tools.Tool {
	base := capturedTools(tb, "servers")
	all := catalog.Native()
	var cached []vault.MCPTool
	for copyN := 0; len(all)+len(cached) < n; copyN++ {
		for _, c := range base {
			if len(all)+len(cached) == n {
				break
			}
			c.Server = fmt.Sprintf("%s%d", c.Server, copyN)
			cached = append(cached, c)
		}
	}
	return append(all, bridged(cached)...)
}

// query is one labelled request of testdata/queries.json: the person's
// words and the tools that would serve it (any one of them will do; more
// than one only where servers duplicate a capability).
type query struct {
	Query string   `json:"query"`
	Tools []string `json:"tools"`
	// Steps, for a request of several steps, lists each step's tools in
	// order; Tools is then the first step's.
	Steps [][]string `json:"steps,omitempty"`
}

// heldOut reports whether q belongs to the held-out split: a quarter of the
// queries, chosen by a hash of their text, that tuning must not look at.
func (q query) heldOut() bool {
	h := fnv.New32a()
	h.Write([]byte(q.Query))
	return h.Sum32()%4 == 0
}

// loadQueries reads testdata/queries.json and checks that every tool it
// names is in cat.
func loadQueries(tb testing.TB, cat []*tools.Tool) []query {
	return loadQueriesFrom(tb, cat, "queries.json")
}

func loadQueriesFrom(tb testing.TB, cat []*tools.Tool, file string) []query {
	tb.Helper()
	if !filepath.IsAbs(file) {
		file = filepath.Join("testdata", file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	names := map[string]bool{}
	for _, t := range cat {
		names[t.Name] = true
	}
	for _, q := range qs {
		for _, n := range q.Tools {
			if !names[n] {
				tb.Fatalf("query %q needs %s, which is not in the catalogue", q.Query, n)
			}
		}
	}
	return qs
}
