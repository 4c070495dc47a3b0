package selector

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

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
	parsed   bool // the schema is a JSON object, read into the fields above
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
	// serverWords are the words of the servers' names, sorted, once each.
	serverWords []string
	// What meaning (meaning.go) is computed from when a request is first
	// ranked: each term's name and the first word of the catalogue that
	// became it (its surface, "" for the native tools' terms), and NewIndex's
	// counts of each field's terms (flat, from: see NewIndex).
	termNames []string
	surface   []string
	flat      []termCount
	from      []int32
	meaning   sync.Once
	space     *meaningSpace
}

// NewIndex indexes ts in the order given; ties in ranking keep that order.
//
// Every start of tai builds an index before its first model request, so
// the build is written to be cheap (docs/benchmarks.md, "Start-up beside
// other agents"): each distinct word of the catalogue is reduced to its
// term once, terms are numbered, and counts live in slices indexed by
// term rather than in a map per field of each tool. What it computes is
// exactly the plain BM25F build of the tests' referenceIndex: the same
// postings, their scores summed in the same order.
func NewIndex(ts []*tools.Tool) *Index {
	ix := &Index{tools: ts, bytes: make([]int, len(ts)), byName: make(map[string]int, len(ts))}
	nf := len(fields)
	lx := newLexicon(len(ts))
	// The words of field f of tool i, as term ids, are
	// words[at[i*nf+f]:at[i*nf+f+1]]; named holds, per tool, the texts of
	// the fields compounds are split in.
	at := make([]int32, len(ts)*nf+1)
	words := make([]int32, 0, nativeWords+64*len(ts))
	var named []string
	var native []int32 // nativeTerms' ids in lx, -1 until met
	var buf []byte
	for i, t := range ts {
		ix.byName[t.Name] = i
		if nd := nativeDocFor(t, &buf); nd != nil {
			if native == nil {
				native = make([]int32, len(nativeTerms))
				for j := range native {
					native[j] = -1
				}
			}
			ix.bytes[i] = nd.bytes
			named = append(named, nd.named...)
			for f := range fields {
				for _, w := range nd.words[f] {
					if native[w] < 0 {
						native[w] = lx.id(nativeTerms[w])
					}
					words = append(words, native[w])
				}
				at[i*nf+f+1] = int32(len(words))
			}
		} else {
			d := newDoc(t)
			ix.bytes[i] = d.specBytes()
			for f := range fields {
				text := fields[f].text(d)
				if fields[f].compounds {
					named = append(named, text)
				}
				words = lx.appendWords(words, text)
				at[i*nf+f+1] = int32(len(words))
			}
		}
		ix.total += ix.bytes[i]
		lx.count(words[at[i*nf]:], int32(i))
	}

	// Count each field's terms, compound parts included: flat holds the
	// distinct terms of field f of tool i with their counts at
	// flat[from[i*nf+f]:from[i*nf+f+1]], in order of first use, and dl
	// their total.
	split := compounds{lx: lx, memo: map[string][]int32{}}
	nt := len(lx.terms)
	counts := make([]int32, nt) // of the field at hand; zeroed after it
	users := make([]int32, nt)  // tools using each term, with compound parts
	last := make([]int32, nt)   // 1 + the last tool counted in users
	from := make([]int32, len(ts)*nf+1)
	dl := make([]int32, len(ts)*nf)
	flat := make([]termCount, 0, len(words))
	lens := make([]float64, nf)
	have := make([]int, nf) // tools with words in each field
	k := 0
	for i := range ts {
		for f := range fields {
			seg := words[at[i*nf+f]:at[i*nf+f+1]]
			var parts []int32
			if fields[f].compounds {
				parts = split.parts(named[k])
				k++
			}
			start := len(flat)
			for _, w := range [2][]int32{seg, parts} {
				for _, id := range w {
					if counts[id] == 0 {
						flat = append(flat, termCount{id, 0})
						if last[id] != int32(i)+1 {
							last[id] = int32(i) + 1
							users[id]++
						}
					}
					counts[id]++
				}
			}
			for j := start; j < len(flat); j++ {
				flat[j].n = counts[flat[j].term]
				counts[flat[j].term] = 0
			}
			n := len(seg) + len(parts)
			dl[i*nf+f] = int32(n)
			from[i*nf+f+1] = int32(len(flat))
			lens[f] += float64(n)
			if n > 0 {
				have[f]++
			}
		}
	}
	ix.weigh(flat, from, dl, users, lens, have, lx.terms)
	ix.termNames, ix.surface, ix.flat, ix.from = lx.terms, lx.surface, flat, from
	ix.nameServers()
	return ix
}

// termCount is how many times a field of a tool uses a term.
type termCount struct{ term, n int32 }

// lexicon numbers the terms of a catalogue as NewIndex meets them.
type lexicon struct {
	ids     map[string]int32 // term → id
	terms   []string         // id → term
	surface []string         // id → the first word that became it, if any
	df      []int32          // tools using each term, compound parts not counted
	last    []int32          // 1 + the last tool counted in df
	// words maps a lower-cased word of a text (forEachWord's) to the id
	// of its term, -1 when Words drops it, so each distinct word is
	// checked and stemmed once per build.
	words map[string]int32
}

// newLexicon sizes its maps for tools, most of them native ones.
func newLexicon(tools int) *lexicon {
	return &lexicon{ids: make(map[string]int32, len(nativeTerms)+8*tools)}
}

// appendWords appends the term ids of text's words, as Words gives them.
func (lx *lexicon) appendWords(dst []int32, text string) []int32 {
	if lx.words == nil {
		lx.words = make(map[string]int32, 1024)
	}
	forEachWord(text, func(w string) {
		id, ok := lx.words[w]
		if !ok {
			id = -1
			if kept(w) {
				id = lx.id(Stem(w))
				if lx.surface[id] == "" {
					lx.surface[id] = w
				}
			}
			lx.words[w] = id
		}
		if id >= 0 {
			dst = append(dst, id)
		}
	})
	return dst
}

// id numbers term, adding it if new.
func (lx *lexicon) id(term string) int32 {
	if id, ok := lx.ids[term]; ok {
		return id
	}
	id := int32(len(lx.terms))
	lx.ids[term] = id
	lx.terms = append(lx.terms, term)
	lx.surface = append(lx.surface, "")
	lx.df = append(lx.df, 0)
	lx.last = append(lx.last, 0)
	return id
}

// count adds tool to the document frequency of each term of ids.
func (lx *lexicon) count(ids []int32, tool int32) {
	for _, id := range ids {
		if lx.last[id] != tool+1 {
			lx.last[id] = tool + 1
			lx.df[id]++
		}
	}
}

// dfOf is the number of tools using term, compound parts not counted.
func (lx *lexicon) dfOf(term string) int {
	if id, ok := lx.ids[term]; ok {
		return int(lx.df[id])
	}
	return 0
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
			if !slices.Contains(ix.serverWords, w) {
				ix.serverWords = append(ix.serverWords, w)
			}
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
	sort.Strings(ix.serverWords)
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

// weigh turns term counts into BM25F postings: for each tool in order,
// each term's field-weighted, length-normalised frequency summed over the
// fields in order, saturated, then scaled by the term's idf. flat, from
// and dl are NewIndex's counts; df counts the tools using each term.
func (ix *Index) weigh(flat []termCount, from, dl, df []int32, lens []float64, have []int, terms []string) {
	n := float64(len(ix.tools))
	nf := len(fields)
	avg := make([]float64, nf)
	for f := range fields {
		m := n
		if fields[f].sparse {
			m = float64(have[f])
		}
		avg[f] = math.Max(lens[f]/math.Max(m, 1), 1)
	}
	// Each term's postings are postings[start[id]:start[id]+df[id]],
	// filled in tool order.
	start := make([]int32, len(df)+1)
	for id, c := range df {
		start[id+1] = start[id] + c
	}
	all := make([]posting, start[len(df)])
	fill := make([]int32, len(df))
	tf := make([]float64, len(df)) // weighted, length-normalized
	var used []int32
	for i := range ix.tools {
		used = used[:0]
		for f := range fields {
			norm := 1 - b + b*float64(dl[i*nf+f])/avg[f]
			for _, c := range flat[from[i*nf+f]:from[i*nf+f+1]] {
				if tf[c.term] == 0 {
					used = append(used, c.term)
				}
				tf[c.term] += fields[f].weight * float64(c.n) / norm
			}
		}
		for _, id := range used {
			x := tf[id]
			all[start[id]+fill[id]] = posting{tool: int32(i), score: float32(x * (k1 + 1) / (x + k1))}
			fill[id]++
			tf[id] = 0
		}
	}
	ix.postings = make(map[string][]posting, len(df))
	for id, term := range terms {
		ps := all[start[id]:start[id+1]:start[id+1]]
		c := float64(len(ps))
		idf := float32(math.Log(1 + (n-c+0.5)/(c+0.5)))
		for j := range ps {
			ps[j].score *= idf
		}
		ix.postings[term] = ps
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
	d.parsed = true
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
