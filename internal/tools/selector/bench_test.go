package selector_test

import (
	"path/filepath"
	"slices"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// method is one way of choosing the tools offered for a request.
type method struct {
	name  string
	offer func(input string) []*tools.Tool
	// kept are the tools the bridge lists but keeps back (past their
	// server's MCP_MAX_TOOLS): no method may offer them.
	kept map[string]bool
}

func methods(cat []*tools.Tool) []method {
	ix := selector.NewIndex(cat)
	var offerable []*tools.Tool // the baseline too offers no tool the bridge keeps back
	kept := map[string]bool{}
	for _, t := range cat {
		if t.Unoffered {
			kept[t.Name] = true
		} else {
			offerable = append(offerable, t)
		}
	}
	base := newBM25(offerable)
	return []method{
		{"tai", func(in string) []*tools.Tool {
			return selector.Selector{}.Select(ix, selector.Request{Query: selector.Query{Input: in}}).Tools
		}, kept},
		{"bm25", func(in string) []*tools.Tool { return base.top(in, 24) }, kept},
	}
}

// score is a method's quality on a set of queries.
type score struct {
	queries int
	recall  float64 // share of queries whose tool was offered
	tokens  float64 // mean estimated tokens offered
	misses  []query
	// reachable counts the queries with a tool that may be offered at
	// all; reachableRecall is the recall on those alone.
	reachable       int
	reachableRecall float64
}

func evaluate(m method, qs []query) score {
	var s score
	found := 0
	for _, q := range qs {
		for _, want := range q.Tools {
			if !m.kept[want] {
				s.reachable++
				break
			}
		}
		offered := m.offer(q.Query)
		bytes, hit := 0, false
		for _, t := range offered {
			bytes += selector.SpecBytes(t)
			for _, want := range q.Tools {
				hit = hit || t.Name == want
			}
		}
		s.tokens += float64(selector.Tokens(bytes))
		if hit {
			found++
		} else {
			s.misses = append(s.misses, q)
		}
	}
	s.queries = len(qs)
	if len(qs) > 0 {
		s.recall = float64(found) / float64(len(qs))
		s.tokens /= float64(len(qs))
	}
	if s.reachable > 0 {
		s.reachableRecall = float64(found) / float64(s.reachable)
	}
	return s
}

// splits divides the queries into the tuning split and the held-out one.
func splits(qs []query) map[string][]query {
	out := map[string][]query{"all": qs}
	for _, q := range qs {
		if q.heldOut() {
			out["heldout"] = append(out["heldout"], q)
		} else {
			out["tune"] = append(out["tune"], q)
		}
	}
	return out
}

// evaluation is a catalogue with the queries asked of it, by split.
type evaluation struct {
	cat    []*tools.Tool
	total  float64 // the catalogue's tokens
	splits map[string][]query
	order  []string
}

// evaluations are the repository's queries over the captured catalogue
// (tune, heldout and all), then the set written blind to the selector
// over that catalogue grown by the set's own servers (unseen).
func evaluations(tb testing.TB) []evaluation {
	cat := benchCatalogue(tb)
	ucat := unseenCatalogue(tb)
	return []evaluation{
		{cat, float64(selector.NewIndex(cat).CatalogueTokens()), splits(loadQueries(tb, cat)), []string{"tune", "heldout", "all"}},
		{ucat, float64(selector.NewIndex(ucat).CatalogueTokens()),
			map[string][]query{"unseen": loadQueriesFrom(tb, ucat, filepath.Join("unseen", "queries.json"))}, []string{"unseen"}},
	}
}

// BenchmarkSelection runs the labelled queries over the captured catalogue
// for tai's selector and the BM25 baseline, side by side. Per split it
// reports recall, the mean offered tokens, their share of the catalogue's
// tokens, and (ns/op) the time of one selection.
func BenchmarkSelection(b *testing.B) {
	for _, ev := range evaluations(b) {
		b.Logf("catalogue: %d tools, %.0f tokens; splits %v", len(ev.cat), ev.total, ev.order)
		for _, m := range methods(ev.cat) {
			for _, name := range ev.order {
				benchSplit(b, m, name, ev.splits[name], ev.total)
			}
		}
	}
}

func benchSplit(b *testing.B, m method, name string, set []query, total float64) {
	b.Run(m.name+"/"+name, func(b *testing.B) {
		s := evaluate(m, set)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.offer(set[i%len(set)].Query)
		}
		b.ReportMetric(100*s.recall, "recall%")
		b.ReportMetric(100*s.reachableRecall, "reachable-recall%")
		b.ReportMetric(s.tokens, "tokens")
		b.ReportMetric(100*s.tokens/total, "%catalogue")
	})
}

// BenchmarkSelect3200 times one selection over a synthetic catalogue of
// 3,200 tools, the target being under 2 ms.
func BenchmarkSelect3200(b *testing.B) {
	cat := syntheticCatalogue(b, 3200)
	qs := loadQueries(b, benchCatalogue(b))
	for _, m := range methods(cat) {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m.offer(qs[i%len(qs)].Query)
			}
		})
	}
}

// BenchmarkIndex3200 times building the index of 3,200 tools, which
// happens once per catalogue change.
func BenchmarkIndex3200(b *testing.B) {
	cat := syntheticCatalogue(b, 3200)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		selector.NewIndex(cat)
	}
}

// TestSelection_Targets holds the selector to issue 6's quality targets on
// the repository's queries: recall of at least 95% with the offered specs
// at most 10% of the catalogue's tokens. Speed is for the benchmarks.
func TestSelection_Targets(t *testing.T) {
	cat := benchCatalogue(t)
	if len(cat) < 300 {
		t.Fatalf("the benchmark catalogue has %d tools; it needs at least 300", len(cat))
	}
	qs := loadQueries(t, cat)
	if len(qs) < 100 {
		t.Fatalf("%d queries; the benchmark needs at least 100", len(qs))
	}
	total := float64(selector.NewIndex(cat).CatalogueTokens())
	for _, ev := range evaluations(t) {
		for _, m := range methods(ev.cat) {
			for _, name := range ev.order {
				if name == "all" {
					continue
				}
				s := evaluate(m, ev.splits[name])
				t.Logf("%-5s %-8s recall %5.1f%% of %3d (%5.1f%% of the %d that may be offered), %5.0f tokens (%.1f%% of %.0f)",
					m.name, name, 100*s.recall, s.queries, 100*s.reachableRecall, s.reachable, s.tokens, 100*s.tokens/ev.total, ev.total)
				if m.name == "tai" && testing.Verbose() {
					ix := selector.NewIndex(ev.cat)
					for _, q := range s.misses {
						if reachable(m, q) {
							t.Logf("  miss (%s): %q wants %v, ranked %d", name, q.Query, q.Tools, bestRank(ix, q))
						}
					}
				}
			}
		}
	}
	s := evaluate(methods(cat)[0], qs)
	if s.recall < 0.95 || s.tokens > 0.10*total {
		t.Errorf("recall %.1f%% with %.0f tokens offered (%.1f%% of the catalogue); want ≥ 95%% within 10%%",
			100*s.recall, s.tokens, 100*s.tokens/total)
	}
	// On the set written blind to the selector, over 1,200 tools, tai must
	// stay ahead of the baseline while offering fewer tokens.
	ev := evaluations(t)[1]
	ms := methods(ev.cat)
	ours, base := evaluate(ms[0], ev.splits["unseen"]), evaluate(ms[1], ev.splits["unseen"])
	if ours.recall <= base.recall || ours.tokens >= base.tokens {
		t.Errorf("unseen set: tai %.1f%% with %.0f tokens, BM25 %.1f%% with %.0f; want tai ahead with fewer tokens",
			100*ours.recall, ours.tokens, 100*base.recall, base.tokens)
	}
}

// reachable reports whether one of q's tools may be offered at all.
func reachable(m method, q query) bool {
	for _, want := range q.Tools {
		if !m.kept[want] {
			return true
		}
	}
	return false
}

// bestRank is the 1-based rank of q's best-ranked tool, 0 when none matches.
func bestRank(ix *selector.Index, q query) int {
	for i, h := range ix.Rank(selector.Query{Input: q.Query}) {
		if slices.Contains(q.Tools, h.Tool.Name) {
			return i + 1
		}
	}
	return 0
}
