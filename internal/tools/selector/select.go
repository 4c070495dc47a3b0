package selector

import (
	"math"

	"tai/internal/tools"
)

// Budget bounds what one step offers the model.
type Budget struct {
	MaxTools  int
	MaxTokens int // estimated tokens of the offered specs (SpecTokens)
}

// DefaultBudget is docs/host.md §6's default: at most 24 tools and 6,000 tokens.
var DefaultBudget = Budget{MaxTools: 24, MaxTokens: 6000}

// DefaultCore is offered at every step, before anything that matches: the
// tools a coding agent reaches for whatever the request, and tool_search
// for everything the selector missed. Names the catalogue lacks are skipped.
var DefaultCore = []string{"tool_search", "read_file", "list_dir", "grep", "edit_file", "shell"}

// minRelevance drops matches scoring under this fraction of the best one:
// a tool that shares only a common word with the request costs tokens
// without being a plausible choice.
const minRelevance = 0.3

// typicalTokens is the size of a typical tool spec. A larger one needs
// proportionally stronger evidence to be offered: it spends budget that
// could offer several tools instead, though a large spec is often a
// detailed one, so the demand grows with the square root of the size.
const typicalTokens = 300

func sizeFactor(tokens int) float64 {
	if tokens <= typicalTokens {
		return 1
	}
	return math.Sqrt(float64(tokens) / typicalTokens)
}

// Selector decides which tools one step offers. The zero value uses
// DefaultCore and DefaultBudget.
type Selector struct {
	Core   []string
	Budget Budget
}

// Request is one step's view of the turn.
type Request struct {
	Query
	// Loaded names the tools tool_search loaded this turn.
	Loaded []string
}

// Selection is what a step offers.
type Selection struct {
	Tools []*tools.Tool
	// Bytes and Tokens measure the offered specs; CatalogueTokens what
	// offering every tool would cost.
	Bytes, Tokens, CatalogueTokens int
}

// Select offers, in this order and while the budget lasts: the core set,
// the tools loaded this turn, the tools the latest traffic called, then the
// best matches of the request. Tools marked Unoffered are never offered.
// The same index and request always give the same selection.
func (s Selector) Select(ix *Index, r Request) Selection {
	budget := s.Budget
	if budget.MaxTools <= 0 {
		budget.MaxTools = DefaultBudget.MaxTools
	}
	if budget.MaxTokens <= 0 {
		budget.MaxTokens = DefaultBudget.MaxTokens
	}
	core := s.Core
	if core == nil {
		core = DefaultCore
	}
	sel := &selection{ix: ix, budget: budget, taken: map[int]bool{}}
	for _, n := range core {
		sel.offer(n)
	}
	for _, n := range r.Loaded {
		sel.offer(n)
	}
	for _, t := range ix.Called(r.Traffic) {
		sel.offer(t.Name)
	}
	hits := ix.Rank(r.Query)
	for _, h := range hits {
		if h.Score < minRelevance*hits[0].Score || len(sel.out.Tools) >= budget.MaxTools {
			break
		}
		if h.Score < hits[0].Score*minRelevance*sizeFactor(Tokens(ix.bytes[h.i])) {
			continue
		}
		sel.offerAt(int(h.i))
	}
	sel.out.Tokens = Tokens(sel.out.Bytes)
	sel.out.CatalogueTokens = ix.CatalogueTokens()
	return sel.out
}

// selection fills a Selection within a budget.
type selection struct {
	ix     *Index
	budget Budget
	taken  map[int]bool
	out    Selection
}

// offer adds the named tool when it exists, may be offered, is not taken
// yet and fits what is left of the budget.
func (s *selection) offer(name string) {
	if i, ok := s.ix.byName[name]; ok {
		s.offerAt(i)
	}
}

// offerAt is offer for the tool at index i.
func (s *selection) offerAt(i int) {
	if s.taken[i] || s.ix.tools[i].Unoffered {
		return
	}
	size := s.ix.bytes[i]
	if len(s.out.Tools) >= s.budget.MaxTools || Tokens(s.out.Bytes+size) > s.budget.MaxTokens {
		return
	}
	s.taken[i] = true
	s.out.Tools = append(s.out.Tools, s.ix.tools[i])
	s.out.Bytes += size
}
