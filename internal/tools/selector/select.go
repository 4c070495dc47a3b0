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

// DefaultBudget is the least a step offers of a catalogue too large to
// offer whole: at most 24 tools and 6,000 tokens (docs/host.md §6).
var DefaultBudget = Budget{MaxTools: 24, MaxTokens: 6000}

// The budget rule (docs/benchmarks.md, "Tool selection"). A catalogue that
// fits in offerAllShare of the model's context window is offered whole.
// A larger one gets catalogueShare of its tokens, at least DefaultBudget,
// at most maxContextShare of the window: a catalogue of 40 servers needs
// more room than one of 4 for the right tool to be among the offered, and
// however large the catalogue, tool specs never crowd out the
// conversation. MaxTools follows as one tool per tokensPerTool.
const (
	offerAllShare   = 0.05
	catalogueShare  = 0.05
	maxContextShare = 0.10
	tokensPerTool   = 200
)

// DefaultContextTokens is the context window assumed when the model's is
// not known.
const DefaultContextTokens = 128_000

// OffersWhole reports whether a catalogue whose specs total
// catalogueTokens is offered whole to a model whose context window holds
// contextTokens (0: DefaultContextTokens): whether it fits in
// offerAllShare of the window. Then nothing can be missed, and the list is
// the same at every step, which keeps the prompt cache warm.
func OffersWhole(catalogueTokens, contextTokens int) bool {
	if contextTokens <= 0 {
		contextTokens = DefaultContextTokens
	}
	return float64(catalogueTokens) <= offerAllShare*float64(contextTokens)
}

// BudgetFor is the budget of one step over a catalogue whose specs total
// catalogueTokens, for a model whose context window holds contextTokens
// (0: DefaultContextTokens).
func BudgetFor(catalogueTokens, contextTokens int) Budget {
	if contextTokens <= 0 {
		contextTokens = DefaultContextTokens
	}
	limit := int(maxContextShare * float64(contextTokens))
	if OffersWhole(catalogueTokens, contextTokens) {
		return Budget{MaxTools: math.MaxInt, MaxTokens: catalogueTokens}
	}
	tokens := max(int(catalogueShare*float64(catalogueTokens)), DefaultBudget.MaxTokens)
	tokens = min(tokens, limit)
	return Budget{MaxTools: max(tokens/tokensPerTool, DefaultBudget.MaxTools), MaxTokens: tokens}
}

// DefaultCore is offered at every step, before anything that matches: the
// tools a coding agent reaches for whatever the request, and tool_search
// for everything the selector missed. Names the catalogue lacks are skipped.
var DefaultCore = []string{"tool_search", "read_file", "list_dir", "grep", "edit_file", "shell"}

// minRelevance drops matches scoring under this fraction of the best one:
// a tool that shares only a common word with the request costs tokens
// without being a plausible choice.
const minRelevance = 0.2

// leftoverRelevance is the floor of a second pass over the matches, which
// offers what the first pass left of the budget to matches between this
// fraction and minRelevance of the best (twice that for native tools,
// more for large specs). A large catalogue's budget is often not spent
// when the first pass ends, and the tool a request in everyday words
// means often scores just under the floor; the first pass comes first, so
// a weaker match never takes a stronger one's place.
const leftoverRelevance = 0.15

// nativeMatches is how many of the best-matching native tools are offered
// ahead of other matches: tai's own tools answer most requests about the
// files, the repository and tai itself, and cost little each.
const nativeMatches = 2

// minNativeRelevance is minRelevance for the native tools past the
// nativeMatches best. A native tool is matched on its phrasings too
// (tools.Tool.Asks, some twenty a tool), so it shares a common word with
// almost any request; past the best two, a native match must be twice as
// strong as a bridged one to spend the budget (in the leftover pass too:
// twice leftoverRelevance).
const minNativeRelevance = 2 * minRelevance

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
// DefaultCore and BudgetFor the catalogue and DefaultContextTokens.
type Selector struct {
	Core []string
	// Budget, when set, replaces BudgetFor's.
	Budget Budget
	// ContextTokens is the model's context window, 0 when not known.
	ContextTokens int
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

// Select offers a catalogue that fits in offerAllShare of the model's
// window whole, whatever the request: the core set first, then every
// other tool in index order (not when s.Budget is set). Otherwise it
// offers, in this order and while the budget lasts: the core set, the
// tools loaded this turn, the tools the latest traffic called, the
// nativeMatches best-matching native tools, then the best matches of the
// request that clear the relevance floor (minRelevance of the best match,
// minNativeRelevance for native tools, more for large specs), then, with
// what is left, those that clear leftoverRelevance. Tools marked
// Unoffered are never offered. The same index and request always give the
// same selection.
func (s Selector) Select(ix *Index, r Request) Selection {
	budget, whole := s.Budget, false
	if budget.MaxTools <= 0 || budget.MaxTokens <= 0 {
		budget = BudgetFor(ix.CatalogueTokens(), s.ContextTokens)
		whole = OffersWhole(ix.CatalogueTokens(), s.ContextTokens)
	}
	core := s.Core
	if core == nil {
		core = DefaultCore
	}
	sel := &selection{ix: ix, budget: budget, taken: map[int]bool{}}
	for _, n := range core {
		sel.offer(n)
	}
	if whole {
		for i := range ix.tools {
			sel.offerAt(i)
		}
		return sel.done()
	}
	for _, n := range r.Loaded {
		sel.offer(n)
	}
	for _, t := range ix.Called(r.Traffic) {
		sel.offer(t.Name)
	}
	hits := ix.Rank(r.Query)
	natives := 0
	for _, h := range hits {
		if natives == nativeMatches {
			break
		}
		if !h.Tool.Bridged() && !sel.taken[int(h.i)] {
			sel.offerAt(int(h.i))
			natives++
		}
	}
	for _, rel := range []float64{minRelevance, leftoverRelevance} {
		for _, h := range hits {
			if h.Score < rel*hits[0].Score || len(sel.out.Tools) >= budget.MaxTools {
				break
			}
			floor := rel
			if !h.Tool.Bridged() {
				floor = rel * (minNativeRelevance / minRelevance)
			}
			if h.Score < hits[0].Score*floor*sizeFactor(Tokens(ix.bytes[h.i])) {
				continue
			}
			sel.offerAt(int(h.i))
		}
	}
	return sel.done()
}

// selection fills a Selection within a budget.
type selection struct {
	ix     *Index
	budget Budget
	taken  map[int]bool
	out    Selection
}

// done is the selection made, with its size.
func (s *selection) done() Selection {
	s.out.Tokens = Tokens(s.out.Bytes)
	s.out.CatalogueTokens = s.ix.CatalogueTokens()
	return s.out
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
