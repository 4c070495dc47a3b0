package selector_test

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// bm25 is the baseline the selector must beat: plain BM25 over each tool's
// name and description as one field, lower-cased words split at anything
// that is not a letter or digit, no stemming, no stop words, no core set,
// the top k offered.
type bm25 struct {
	tools    []*tools.Tool
	postings map[string][]bmPosting
}

type bmPosting struct {
	doc   int
	score float64
}

func plainWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newBM25(ts []*tools.Tool) *bm25 {
	const k1, b = 1.2, 0.75
	x := &bm25{tools: ts, postings: map[string][]bmPosting{}}
	docs := make([][]string, len(ts))
	total := 0
	for i, t := range ts {
		docs[i] = plainWords(t.Name + " " + t.Description)
		total += len(docs[i])
	}
	avg := float64(total) / float64(len(ts))
	for i, d := range docs {
		tf := map[string]int{}
		for _, w := range d {
			tf[w]++
		}
		norm := k1 * (1 - b + b*float64(len(d))/avg)
		for w, c := range tf {
			x.postings[w] = append(x.postings[w], bmPosting{i, float64(c) * (k1 + 1) / (float64(c) + norm)})
		}
	}
	n := float64(len(ts))
	for _, ps := range x.postings {
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for j := range ps {
			ps[j].score *= idf
		}
	}
	return x
}

// top returns the k best-scoring tools for query.
func (x *bm25) top(query string, k int) []*tools.Tool {
	out := x.rank(query)
	return out[:min(k, len(out))]
}

// equalTokens is the largest k at which BM25's top k offer no more
// tokens, on the mean over qs, than tokens: the baseline given the same
// share of the catalogue as the method it is compared with.
func (x *bm25) equalTokens(qs []query, tokens float64) int {
	const most = 256
	var sums [most + 1]float64 // sums[k]: bytes of every query's top k
	for _, q := range qs {
		ranked, bytes := x.rank(q.Query), 0
		for k := 1; k <= most; k++ {
			if k <= len(ranked) {
				bytes += selector.SpecBytes(ranked[k-1])
			}
			sums[k] += float64(bytes)
		}
	}
	best := 1
	for k := 1; k <= most; k++ {
		if float64(selector.Tokens(int(sums[k]/float64(len(qs))))) <= tokens {
			best = k
		}
	}
	return best
}

// rank returns every tool that shares a word with query, best first.
func (x *bm25) rank(query string) []*tools.Tool {
	scores := make([]float64, len(x.tools))
	seen := map[string]bool{}
	for _, w := range plainWords(query) {
		if seen[w] {
			continue
		}
		seen[w] = true
		for _, p := range x.postings[w] {
			scores[p.doc] += p.score
		}
	}
	var idx []int
	for i, s := range scores {
		if s > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	out := make([]*tools.Tool, len(idx))
	for i, d := range idx {
		out[i] = x.tools[d]
	}
	return out
}
