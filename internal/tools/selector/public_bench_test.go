package selector_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/selector"
	"tai/internal/tools/tooltest"
)

// BenchmarkPublicSets measures tai's selector on public tool-retrieval
// benchmarks nobody here wrote, converted by devtools/publicsets (whose
// README says how to fetch and convert each; the data is not committed).
// TAI_PUBLIC_SETS names the folder holding one converted set per
// subfolder (servers/ and queries.json). Each catalogue is the set's own
// tools, no native ones, and small enough that tai would offer it whole;
// so tai is given a budget of a share of the catalogue's tokens (5% and
// 10%) and BM25 the top k that spends as many tokens on the mean.
func BenchmarkPublicSets(b *testing.B) {
	root := os.Getenv("TAI_PUBLIC_SETS")
	if root == "" {
		b.Skip("set TAI_PUBLIC_SETS to the folder devtools/publicsets wrote")
	}
	lexicalIfAsked(b)
	dirs, err := filepath.Glob(filepath.Join(root, "*", "queries.json"))
	if err != nil || len(dirs) == 0 {
		b.Fatalf("no converted sets under %s (%v)", root, err)
	}
	for _, qf := range dirs {
		dir := filepath.Dir(qf)
		reg := tools.NewRegistry()
		reg.Fallback = tooltest.Source(bridged(capturedTools(b, filepath.Join(dir, "servers"))))
		cat := reg.All()
		qs := loadQueriesFrom(b, cat, qf)
		ix := selector.NewIndex(cat)
		total := ix.CatalogueTokens()
		for _, share := range []float64{0.05, 0.10} {
			budget := selector.Budget{MaxTools: len(cat), MaxTokens: int(share * float64(total))}
			c := newContenders(cat)
			sel := selector.Selector{Core: []string{}, Budget: budget}
			c.tai.offer = func(in string) []*tools.Tool {
				return sel.Select(ix, selector.Request{Query: selector.Query{Input: in}}).Tools
			}
			c.tai.next = func(in, traffic string) []*tools.Tool {
				return sel.Select(ix, selector.Request{Query: selector.Query{Input: in, Traffic: traffic}}).Tools
			}
			base, k := c.sameShare(qs)
			name := fmt.Sprintf("%s/share%.0f", filepath.Base(dir), 100*share)
			b.Logf("%s: %d tools, %d tokens, %d queries, budget %d tokens", name, len(cat), total, len(qs), budget.MaxTokens)
			benchSplit(b, c.tai, name, qs, float64(total), 0)
			benchSplit(b, base, name, qs, float64(total), k)
			benchSplit(b, companions(c.tai, ix), name, qs, float64(total), 0)
		}
	}
}

// lexicalIfAsked switches meaning off for the rest of b when
// TAI_BENCH_LEXICAL is set, to measure what meaning adds.
func lexicalIfAsked(b *testing.B) {
	if os.Getenv("TAI_BENCH_LEXICAL") != "" {
		selector.Lexical(b)
	}
}
