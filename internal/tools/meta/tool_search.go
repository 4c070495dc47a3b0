// Package meta holds the tools about tools: tool_search, which finds any
// tool in the catalogue and loads the ones the selector did not offer.
package meta

import (
	"context"
	"embed"
	"fmt"
	"strings"

	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// SearchName is tool_search's name.
const SearchName = "tool_search"

// maxResults bounds one search's answer.
const maxResults = 10

//go:embed tool_search.md
var docs embed.FS

// Tools returns the meta group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: "meta", Docs: docs}
	return []*tools.Tool{tools.Define(group.Tool(SearchName, tools.AlwaysSafe), search)}
}

func search(_ context.Context, call tools.Call, in searchArgs) (tools.Result, error) {
	if strings.TrimSpace(in.Query) == "" && len(in.Load) == 0 {
		return tools.Errorf("tool_search: give a query (words for what the tool should do) or load (tool names)"), nil
	}
	if call.Env == nil || call.Env.Tools == nil {
		return tools.Errorf("tool_search: this host has no tool catalogue to search"), nil
	}
	ix := selector.CatalogueFor(call.Env, call.Env.Tools).Index()
	var b strings.Builder
	if len(in.Load) > 0 {
		if res, ok := load(&b, ix, call.Env, in.Load); !ok {
			return res, nil
		}
	}
	if strings.TrimSpace(in.Query) != "" {
		list(&b, ix, in.Query)
	}
	return tools.Text(strings.TrimRight(b.String(), "\n")), nil
}

type searchArgs struct {
	Query string   `json:"query,omitempty" jsonschema:"words for what the tool should do"`
	Load  []string `json:"load,omitempty" jsonschema:"tool names to offer for the rest of this turn" maxItems:"8"`
}

// list writes the best matches of query, one per line.
func list(b *strings.Builder, ix *selector.Index, query string) {
	hits := ix.Rank(selector.Query{Input: query})
	if len(hits) == 0 {
		fmt.Fprintf(b, "no tool matches %q among %d; try other words (what the tool does, or the service it talks to)\n", query, ix.Len())
		return
	}
	if len(hits) > maxResults {
		hits = hits[:maxResults]
	}
	fmt.Fprintf(b, "tools matching %q:\n", query)
	for _, h := range hits {
		fmt.Fprintf(b, "- %s: %s%s\n", h.Tool.Name, oneLine(h.Tool.Description), listedOnlyNote(h.Tool))
	}
	b.WriteString("to use one not offered yet, call tool_search with load: [names]\n")
}

// load offers the named tools for the rest of the turn, or explains why
// not; ok is false when nothing was loaded and res says why.
func load(b *strings.Builder, ix *selector.Index, env *tools.Env, names []string) (res tools.Result, ok bool) {
	var loaded, problems []string
	for _, n := range names {
		t, found := ix.Lookup(n)
		switch {
		case !found:
			problems = append(problems, fmt.Sprintf("%s: no such tool; search for it by what it does", n))
		case t.Unoffered:
			problems = append(problems, fmt.Sprintf("%s:%s", n, listedOnlyNote(t)))
		default:
			loaded = append(loaded, n)
		}
	}
	if len(loaded) > 0 && !selector.Load(env, loaded...) {
		return tools.Errorf("tool_search: this host keeps no per-turn state, so tools cannot be loaded"), false
	}
	if len(loaded) > 0 {
		fmt.Fprintf(b, "loaded %s: offered from your next step until this turn ends\n", strings.Join(loaded, ", "))
	}
	for _, p := range problems {
		fmt.Fprintf(b, "not loaded: %s\n", p)
	}
	if len(loaded) == 0 {
		return tools.Result{Text: strings.TrimRight(b.String(), "\n"), IsError: true}, false
	}
	return tools.Result{}, true
}

// listedOnlyNote tells how to reach a tool that is listed but not offered.
func listedOnlyNote(t *tools.Tool) string {
	if !t.Unoffered {
		return ""
	}
	return fmt.Sprintf(` (listed, not offered: past server %s's tool cap; call mcp_call {"server":%q,"tool":%q,"args":{…}})`,
		t.Server, t.Server, t.Remote)
}

// oneLine is the first line of an untrusted description, made safe and
// short.
func oneLine(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.IndexByte(d, '\n'); i >= 0 {
		d = d[:i]
	}
	d = textsafe.Line(d)
	if r := []rune(d); len(r) > 140 {
		d = string(r[:139]) + "…"
	}
	return d
}
