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

	"tai/internal/tools"
	"tai/internal/tools/catalog"
	"tai/internal/vault"
)

// captured is one file of testdata/servers, written by internal/capture.
type captured struct {
	Server string `json:"server"`
	Tools  []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
}

// capturedTools reads every captured server as the vault caches it.
func capturedTools(tb testing.TB) []vault.MCPTool {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "servers", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no captured servers in testdata/servers (%v)", err)
	}
	sort.Strings(files)
	var out []vault.MCPTool
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var c captured
		if err := json.Unmarshal(b, &c); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for i, t := range c.Tools {
			out = append(out, vault.MCPTool{Server: c.Server, Tool: t.Name, Description: t.Description, Schema: t.InputSchema, Position: i})
		}
	}
	return out
}

// benchCatalogue is the benchmark's catalogue: tai's native tools followed
// by the captured servers' tools, as the registry lists them.
func benchCatalogue(tb testing.TB) []*tools.Tool {
	reg := tools.NewRegistry(catalog.Native()...)
	reg.Fallback = source(bridged(capturedTools(tb)))
	return reg.All()
}

// bridged builds the tools the MCP bridge offers for cached tool lists:
// mcp_<server>_<tool> sanitized to [a-z0-9_], description and schema
// passed through. The captured names are short and distinct, so the
// bridge's namer (length cap, collision suffixes) names them the same.
func bridged(cached []vault.MCPTool) []*tools.Tool {
	out := make([]*tools.Tool, 0, len(cached))
	for _, c := range cached {
		schema := c.Schema
		if len(schema) == 0 || schema[0] != '{' {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out = append(out, &tools.Tool{Name: "mcp_" + sanitize(c.Server) + "_" + sanitize(c.Tool),
			Description: c.Description, Schema: schema, Group: "mcp", Server: c.Server, Remote: c.Tool})
	}
	return out
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}

// source is a tools.Source over a fixed list.
type source []*tools.Tool

func (s source) Tools() []*tools.Tool { return s }

func (s source) Lookup(name string) (*tools.Tool, bool) {
	for _, t := range s {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// syntheticCatalogue grows the benchmark catalogue to n tools by repeating
// the captured servers under new server names, so the vocabulary and the
// spec sizes stay those of real servers.
func syntheticCatalogue(tb testing.TB, n int) []*tools.Tool {
	base := capturedTools(tb)
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
}

// heldOut reports whether q belongs to the held-out split: a quarter of the
// queries, chosen by a hash of their text, that tuning must not look at.
func (q query) heldOut() bool {
	h := fnv.New32a()
	h.Write([]byte(q.Query))
	return h.Sum32()%4 == 0
}

func loadQueries(tb testing.TB, cat []*tools.Tool) []query {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "queries.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		tb.Fatalf("queries.json: %v", err)
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
