package selector

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"

	"tai/internal/tools"
)

// BM25 constants: term-frequency saturation and length normalization.
const (
	k1 = 1.2
	b  = 0.75
)

// field is one part of a tool's spec with the weight its words carry.
type field struct {
	weight float64
	text   func(d *doc) string
	// compounds: words run together here are also indexed as their parts.
	compounds bool
	// sparse: few tools have the field, so its lengths are normalised by
	// the mean over those that do, not over the whole catalogue.
	sparse bool
}

// doc is the text of one tool, its schema read once.
type doc struct {
	t        *tools.Tool
	argNames []string
	argText  string
}

// fields are what a tool is matched on. The name and the server speak for
// the tool most directly; the first sentence of the description says what
// it does; the rest of the description and the arguments (names, then
// descriptions and enum values) add the vocabulary people use for inputs.
var fields = []field{
	{3, func(d *doc) string { return localName(d.t) }, true, false},
	{2, func(d *doc) string { return d.t.Server }, true, false},
	{0.5, func(d *doc) string { return d.t.Group }, false, false},
	{1, func(d *doc) string { return summary(d.t.Description) }, false, false},
	{1, func(d *doc) string { return d.t.Description }, false, false},
	{0.7, func(d *doc) string { return strings.Join(d.argNames, " ") }, false, false},
	{0.3, func(d *doc) string { return d.argText }, false, false},
	{asksWeight, func(d *doc) string { return d.t.Asks }, false, true},
}

// asksWeight weighs a native tool's phrasings (tools.Tool.Asks) a little
// under its description: they say what it answers in the words people
// use, and are never offered, so they cost no tokens; but a tool has some
// twenty of them, so their words are many, and weighed in full they let
// a native tool outrank a bridged one on a word of a single phrasing.
const asksWeight = 0.8

// posting is one tool's weight for one term: its BM25F term score.
type posting struct {
	tool  int32
	score float32
}

// Index is the searchable form of a tool catalogue. It is immutable once
// built and safe for concurrent use; building it costs a pass over every
// spec, so callers keep one per catalogue (see Catalogue).
type Index struct {
	tools    []*tools.Tool
	bytes    []int // spec size of each tool
	total    int   // spec bytes of the whole catalogue
	postings map[string][]posting
	byName   map[string]int
	// named maps a word of a server's name that stands for the server
	// (at least half the tools using the word are the server's) to it,
	// or to both of two servers that hold half each; members maps each
	// server to its tools.
	named   map[string][]string
	members map[string][]int32
}

// NewIndex indexes ts in the order given; ties in ranking keep that order.
func NewIndex(ts []*tools.Tool) *Index {
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
	split := compounds{df: df, memo: map[string][]string{}}
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
	ix.weigh(docs, lens, have)
	ix.nameServers()
	return ix
}

// nameServers finds the words that name a server: a word of the server's
// name for which at least half the tools using it anywhere belong to the
// server. "linear" names a server called linear; "search" does not name
// brave_search, since tools of every kind use it. A word's beginning of
// at least minShortName letters that the catalogue uses, at least half
// the time in the server's tools, names it too: people shorten "argocd"
// to "argo" and "mongodb" to "mongo", as the servers' own descriptions
// often do.
func (ix *Index) nameServers() {
	ix.members = map[string][]int32{}
	for i, t := range ix.tools {
		if t.Server != "" {
			ix.members[t.Server] = append(ix.members[t.Server], int32(i))
		}
	}
	ix.named = map[string][]string{}
	for srv, members := range ix.members {
		for _, w := range Words(srv) {
			if df := len(ix.postings[w]); df > 0 && 2*len(members) >= df && !slices.Contains(ix.named[w], srv) {
				ix.named[w] = append(ix.named[w], srv)
			}
			for n := minShortName; n < len(w); n++ {
				if p := w[:n]; ix.mostlyOf(p, srv) && !slices.Contains(ix.named[p], srv) {
					ix.named[p] = append(ix.named[p], srv)
				}
			}
		}
	}
}

// minShortName is the fewest letters of a server's name that name it.
const minShortName = 4

// mostlyOf reports whether the catalogue uses term and at least half the
// tools using it are srv's.
func (ix *Index) mostlyOf(term, srv string) bool {
	ps := ix.postings[term]
	own := 0
	for _, p := range ps {
		if ix.tools[p.tool].Server == srv {
			own++
		}
	}
	return len(ps) > 0 && 2*own >= len(ps)
}

// weigh turns term counts into BM25F postings.
func (ix *Index) weigh(docs [][]map[string]int, lens []float64, have []int) {
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

// Len is the number of tools indexed.
func (ix *Index) Len() int { return len(ix.tools) }

// Tools returns the indexed tools in index order.
func (ix *Index) Tools() []*tools.Tool { return ix.tools }

// CatalogueTokens is the estimated size of offering every tool at once.
func (ix *Index) CatalogueTokens() int { return Tokens(ix.total) }

// Lookup finds an indexed tool by name.
func (ix *Index) Lookup(name string) (*tools.Tool, bool) {
	i, ok := ix.byName[name]
	if !ok {
		return nil, false
	}
	return ix.tools[i], true
}

// localName is the tool's own name: the server's name for a bridged tool,
// without tai's mcp_<server>_ prefix (the server is its own field).
func localName(t *tools.Tool) string {
	if t.Bridged() && t.Remote != "" {
		return t.Remote
	}
	return t.Name
}

// summary is the first sentence or line of a description.
func summary(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.IndexAny(d, "\n"); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, ". "); i >= 0 {
		d = d[:i]
	}
	return d
}

// newDoc reads t's schema for the argument fields.
func newDoc(t *tools.Tool) *doc {
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
		} `json:"properties"`
	}
	d := &doc{t: t}
	if json.Unmarshal(t.Schema, &s) != nil {
		return d
	}
	for name := range s.Properties {
		d.argNames = append(d.argNames, name)
	}
	sort.Strings(d.argNames)
	var b strings.Builder
	for _, name := range d.argNames {
		p := s.Properties[name]
		b.WriteString(p.Description)
		for _, e := range p.Enum {
			if str, ok := e.(string); ok {
				b.WriteString(" " + str)
			}
		}
		b.WriteString(". ")
	}
	d.argText = b.String()
	return d
}
