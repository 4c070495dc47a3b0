package selector

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"tai/internal/tools"
)

// This file keeps the straightforward build of an Index, as NewIndex was
// before it was made cheap for the first selection of a process
// (docs/benchmarks.md, "Start-up beside other agents"). NewIndex must
// build exactly the index it builds: the same postings, bit for bit, so
// every ranking and selection is the same (index_equiv_test.go).

// ReferenceIndex exposes referenceIndex to the package's external tests.
var ReferenceIndex = referenceIndex

// referenceIndex is NewIndex as it was written before the build was made
// fast: one map of term counts per field of each tool, compounds split by
// referenceCompounds. Index equivalence tests hold NewIndex to it.
func referenceIndex(ts []*tools.Tool) *Index {
	ix := &Index{tools: ts, bytes: make([]int, len(ts)), postings: map[string][]posting{}, byName: map[string]int{}}
	docs := make([][]map[string]int, len(ts)) // per tool, per field: term counts
	names := make([][]string, len(ts))        // per tool, the texts of the fields compounds are split in
	df := map[string]int{}                    // tools using each term
	for i, t := range ts {
		ix.bytes[i] = SpecBytes(t)
		ix.total += ix.bytes[i]
		ix.byName[t.Name] = i
		docs[i] = make([]map[string]int, len(fields))
		d := newDoc(t)
		used := map[string]bool{}
		for f, fd := range fields {
			text := fd.text(d)
			if fields[f].compounds {
				names[i] = append(names[i], text)
			}
			words := Words(text)
			counts := make(map[string]int, len(words))
			for _, w := range words {
				counts[w]++
				if !used[w] {
					used[w] = true
					df[w]++
				}
			}
			docs[i][f] = counts
		}
	}
	split := referenceCompounds{df: df, memo: map[string][]string{}}
	lens := make([]float64, len(fields))
	have := make([]int, len(fields)) // tools with words in each field
	for i := range ts {
		k := 0
		for f := range fields {
			if fields[f].compounds {
				for _, p := range split.parts(names[i][k]) {
					docs[i][f][p]++
				}
				k++
			}
			for _, c := range docs[i][f] {
				lens[f] += float64(c)
			}
			if len(docs[i][f]) > 0 {
				have[f]++
			}
		}
	}
	ix.postings = make(map[string][]posting, len(df))
	referenceWeigh(ix, docs, lens, have)
	ix.nameServers()
	return ix
}

// referenceWeigh turns term counts into BM25F postings.
func referenceWeigh(ix *Index, docs [][]map[string]int, lens []float64, have []int) {
	n := float64(len(docs))
	avg := make([]float64, len(fields))
	for f := range fields {
		m := n
		if fields[f].sparse {
			m = float64(have[f])
		}
		avg[f] = math.Max(lens[f]/math.Max(m, 1), 1)
	}
	for i, doc := range docs {
		terms := 0
		for _, counts := range doc {
			terms += len(counts)
		}
		tf := make(map[string]float64, terms) // weighted, length-normalized
		for f, counts := range doc {
			dl := 0
			for _, c := range counts {
				dl += c
			}
			norm := 1 - b + b*float64(dl)/avg[f]
			for w, c := range counts {
				tf[w] += fields[f].weight * float64(c) / norm
			}
		}
		for w, x := range tf {
			ix.postings[w] = append(ix.postings[w], posting{tool: int32(i), score: float32(x * (k1 + 1) / (x + k1))})
		}
	}
	for _, ps := range ix.postings {
		df := float64(len(ps))
		idf := float32(math.Log(1 + (n-df+0.5)/(df+0.5)))
		for j := range ps {
			ps[j].score *= idf
		}
	}
}

// referenceCompounds is compounds as referenceIndex used it: splits words
// by the catalogue's terms, counted in a map.
type referenceCompounds struct {
	df   map[string]int // tools using each term
	memo map[string][]string
}

// parts returns the terms of the referenceCompounds in text.
func (c referenceCompounds) parts(text string) []string {
	var out []string
	forEachWord(text, func(w string) {
		p, ok := c.memo[w]
		if !ok {
			p = c.split(w)
			c.memo[w] = p
		}
		out = append(out, p...)
	})
	return out
}

// split divides w into the fewest terms of the catalogue, each used by at
// least two tools and by at least as many as w itself; nil when w is no
// such compound.
func (c referenceCompounds) split(w string) []string {
	n := len(w)
	if n < minCompound || !isASCIILetters(w) {
		return nil
	}
	need := max(2, c.df[Stem(w)])
	// best[i] is the fewest parts that spell w[:i], 0 when none do.
	best := make([]int, n+1)
	from := make([]int, n+1)
	for i := minPart; i <= n; i++ {
		for j := 0; j+minPart <= i; j++ {
			if j > 0 && best[j] == 0 || best[j] >= maxParts || i-j == n {
				continue
			}
			part := w[j:i]
			if stopWords()[part] || c.df[Stem(part)] < need {
				continue
			}
			if k := best[j] + 1; best[i] == 0 || k < best[i] {
				best[i], from[i] = k, j
			}
		}
	}
	if best[n] < 2 {
		return nil
	}
	var out []string
	for i := n; i > 0; i = from[i] {
		out = append([]string{Stem(w[from[i]:i])}, out...)
	}
	return out
}

// referenceForEachWord is forEachWord as it was before its ASCII fast
// path: it calls fn with each lower-cased word of text. A word split at
// case changes is also given whole, so "JavaScript" matches javascript as
// well as script, and "GitHub" matches github. Chinese and Japanese text
// gives each letter and each two letters in a row (see isCJK).
func referenceForEachWord(text string, fn func(string)) {
	start, run, parts := -1, -1, 0
	var prev rune
	flush := func(end int) {
		if start >= 0 {
			fn(strings.ToLower(text[start:end]))
			parts++
		}
		start = -1
	}
	endRun := func(end int) {
		flush(end)
		if parts > 1 {
			fn(strings.ToLower(text[run:end]))
		}
		run, parts = -1, 0
	}
	cjk := -1 // where the previous letter began, when it was Chinese or Japanese
	for i, r := range text {
		if isCJK(r) { // written without spaces: each letter and each two in a row are words
			endRun(i)
			prev = 0
			fn(text[i : i+utf8.RuneLen(r)])
			if cjk >= 0 {
				fn(text[cjk : i+utf8.RuneLen(r)])
			}
			cjk = i
			continue
		}
		cjk = -1
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			endRun(i)
			prev = 0
			continue
		}
		if start >= 0 && caseBoundary(prev, r, text[i+utf8.RuneLen(r):]) {
			flush(i)
		}
		if start < 0 {
			start = i
		}
		if run < 0 {
			run = i
		}
		prev = r
	}
	endRun(len(text))
}

// ForEachWord and ReferenceForEachWord expose the two to external tests.
var ForEachWord, ReferenceForEachWord = forEachWord, referenceForEachWord

// SameIndex reports how a differs from b, nil when they are the same
// index: the same tools in the same order, sizes, names, server words and
// members, and every posting list the same, its scores bit for bit.
func SameIndex(a, b *Index) error {
	switch {
	case len(a.tools) != len(b.tools):
		return fmt.Errorf("%d tools, want %d", len(a.tools), len(b.tools))
	case !slices.Equal(a.tools, b.tools):
		return fmt.Errorf("tools differ")
	case !slices.Equal(a.bytes, b.bytes) || a.total != b.total:
		return fmt.Errorf("spec sizes differ")
	case !maps.Equal(a.byName, b.byName):
		return fmt.Errorf("names differ")
	case !maps.EqualFunc(a.named, b.named, slices.Equal):
		return fmt.Errorf("server words differ: %v, want %v", a.named, b.named)
	case !maps.EqualFunc(a.members, b.members, slices.Equal):
		return fmt.Errorf("server members differ")
	case !slices.Equal(a.serverWords, b.serverWords):
		return fmt.Errorf("server name words differ: %v, want %v", a.serverWords, b.serverWords)
	case len(a.postings) != len(b.postings):
		return fmt.Errorf("%d terms, want %d", len(a.postings), len(b.postings))
	}
	for term, want := range b.postings {
		got, ok := a.postings[term]
		if !ok {
			return fmt.Errorf("term %q missing", term)
		}
		if !slices.EqualFunc(got, want, func(p, q posting) bool {
			return p.tool == q.tool && math.Float32bits(p.score) == math.Float32bits(q.score)
		}) {
			return fmt.Errorf("postings of %q: %v, want %v", term, got, want)
		}
	}
	return nil
}

// InNativeTable reports whether NewIndex takes t's terms from
// native_table.go rather than reading its text.
func InNativeTable(t *tools.Tool) bool { return nativeDocFor(t, new([]byte)) != nil }

// DocSpecBytes is what NewIndex takes as t's spec size when it reads t
// from its text.
func DocSpecBytes(t *tools.Tool) int { return newDoc(t).specBytes() }
