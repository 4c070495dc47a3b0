package agent

import (
	"context"

	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// LazyTools is the Selector of docs/host.md §6: each step offers the core set,
// the tools tool_search loaded this turn, and the best matches of the
// person's message, over the registry's native and bridged tools alike,
// within the selector's budget. The index is shared through the host's
// tool state with tool_search and rebuilt only when the registry's tool
// list changes.
//
// The words of the tool traffic do not add tools after the first step:
// the tools lead the prompt, so every tool added mid-turn makes the
// provider read the whole history again at full price instead of from its
// prompt cache (docs/benchmarks.md, "Prompt caching"). Within a turn the
// list changes only when the model asks tool_search for more.
type LazyTools struct {
	Registry *tools.Registry
	Selector selector.Selector
}

// Select implements Selector.
func (l LazyTools) Select(_ context.Context, q SelectQuery) []*tools.Tool {
	ix := selector.CatalogueFor(q.Env, l.Registry).Index()
	return l.Selector.Select(ix, selector.Request{
		Query:  selector.Query{Input: q.Input},
		Loaded: selector.Loaded(q.Env),
	}).Tools
}
