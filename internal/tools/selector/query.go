package selector

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"tai/internal/tools"
)

// Query is what tools are matched against.
type Query struct {
	// Input is the person's message; its words count in full.
	Input string
	// Traffic is the latest tool calls and results of the turn; its words
	// count at trafficWeight, and the tools it names are Called.
	Traffic string
}

// trafficWeight is what a word of tool traffic counts for: results are
// long and mostly data, so they steer the choice without taking it over.
const trafficWeight = 0.3

// serverBoost multiplies the score of every tool of a server the input
// names: "list my open issues in linear" is about linear's tools first.
const serverBoost = 2

// quotedWeight is what a word quoted in the input counts for: a quoted
// span is the payload of the request (a message to send, a commit
// message, a text to search for), not what the person asks to be done.
const quotedWeight = 0.3

// isNumber reports whether a word is all digits.
func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// closingQuote gives the quote that closes open, if open is a quote (a
// switch, not a map: nothing to build when tai starts).
func closingQuote(open rune) (rune, bool) {
	switch open {
	case '\'', '"', '`':
		return open, true
	case '‘':
		return '’', true
	case '“':
		return '”', true
	}
	return 0, false
}

// splitQuoted separates the spans of text quoted with '…', "…", `…`, ‘…’
// or “…” from the rest. A quote counts only at a word's edge, so the
// apostrophes of "what's" and "team's" quote nothing; an unclosed quote
// quotes nothing.
func splitQuoted(text string) (said, quoted string) {
	var s, q strings.Builder
	rs := []rune(text)
	edge := func(i int) bool { return i < 0 || i >= len(rs) || !unicode.IsLetter(rs[i]) && !unicode.IsDigit(rs[i]) }
	for i := 0; i < len(rs); i++ {
		end, ok := closingQuote(rs[i])
		if ok && edge(i-1) {
			j := i + 1
			for j < len(rs) && !(rs[j] == end && edge(j+1)) {
				j++
			}
			if j < len(rs) && j > i+1 {
				q.WriteString(string(rs[i+1 : j]))
				q.WriteByte(' ')
				s.WriteByte(' ')
				i = j
				continue
			}
		}
		s.WriteRune(rs[i])
	}
	return s.String(), q.String()
}

// splitPaths separates the words of text that name a file, a path, a
// pattern or an address (main.go, src/app, *.test.ts, youtu.be/x) from
// the rest: like a quoted span, they are what the request acts on, and
// the words inside them ("test" in *.test.ts) say little about the tool.
func splitPaths(text string) (said, named string) {
	return splitWords(text, isPathLike)
}

// splitWords separates the words of text for which is, given the word
// without the punctuation that may end a sentence, holds from the rest.
func splitWords(text string, is func(string) bool) (rest, matched string) {
	var r, m strings.Builder
	for _, f := range strings.Fields(text) {
		if is(strings.TrimRight(f, ".,;:!?)")) {
			m.WriteString(f + " ")
		} else {
			r.WriteString(f + " ")
		}
	}
	return r.String(), m.String()
}

// isPathLike reports whether a word holds a slash, a backslash or a glob
// star, or a dot between a letter or digit and a letter (a file name or a
// host, not "3.5" or the end of a sentence).
func isPathLike(w string) bool {
	if strings.ContainsAny(w, "/\\*") {
		return true
	}
	for i := 1; i+1 < len(w); i++ {
		if w[i] == '.' && isAlnum(w[i-1]) && (w[i+1] >= 'a' && w[i+1] <= 'z' || w[i+1] >= 'A' && w[i+1] <= 'Z') {
			return true
		}
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Hit is one ranked tool.
type Hit struct {
	Tool  *tools.Tool
	Score float64
	i     int32 // index in the Index
}

// concept is one word of the query with the related words that may stand
// in for it: a tool scores for the concept by its best member, so a word
// with many relatives counts no more than a word with none.
type concept struct {
	stem   string
	weight float64
}

// concepts weighs the query's words: each distinct word of the input 1,
// of the traffic trafficWeight. They are sorted so that scores are summed
// in the same order every time and the ranking is reproducible to the bit.
// in is q.Input taken apart (partsOf).
func (ix *Index) concepts(q Query, in inputParts) []concept {
	w := map[string]float64{}
	note := func(t string, weight float64) {
		if weight > w[t] {
			w[t] = weight
		}
	}
	add := func(text string, weight float64) {
		forEachWord(text, func(word string) {
			if full, ok := abbreviations()[word]; ok {
				for _, t := range Words(full) {
					note(t, weight)
				}
			}
			ww := weight
			if isNumber(word) {
				ww *= quotedWeight // 20, 1423: data, like a quoted span
			}
			for _, t := range Words(word) {
				note(t, ww)
			}
		})
	}
	add(kindsOf(q.Input), kindWeight) // the kinds of its payload: a phone number, a .xlsx file…
	add(in.said, 1)
	for _, p := range phrases(in.said) {
		note(p, 1)
	}
	add(in.quoted, quotedWeight)
	add(in.named, quotedWeight)
	for _, f := range strings.Fields(in.named) {
		for _, w := range ix.linkedServers(f) {
			note(w, 1)
		}
	}
	add(q.Traffic, trafficWeight)
	out := make([]concept, 0, len(w))
	for t, weight := range w {
		out = append(out, concept{t, weight})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].stem < out[j].stem })
	return out
}

// inputParts is a request's text taken apart: what the person asks to be
// done (said), and the payload it acts on, which counts as little as data
// (splitQuoted, splitPaths).
type inputParts struct{ said, quoted, named string }

func partsOf(input string) (p inputParts) {
	p.said, p.quoted = splitQuoted(input)
	p.said, p.named = splitPaths(p.said)
	return p
}

// phrases are the words in a row of text, two or three, that the
// thesaurus knows as one ("get rid of", "sum up", "shut down"): each is a
// concept of its own, matched through its related words, beside the words
// it is made of.
func phrases(text string) []string {
	var words []string
	forEachWord(text, func(w string) { words = append(words, w) })
	var out []string
	for i := range words {
		for n := 2; n <= 3 && i+n <= len(words); n++ {
			if k := phraseKey(words[i : i+n]); relativesOf(k) != nil {
				out = append(out, k)
			}
		}
	}
	return out
}

// Rank scores every tool against q and returns those that match, best
// first; equal scores keep index order, so the ranking is deterministic.
func (ix *Index) Rank(q Query) []Hit {
	n := len(ix.tools)
	scores := make([]float32, n)
	best := make([]float32, n)
	touched := make([]int32, 0, 64)
	in := partsOf(q.Input)
	concepts := ix.concepts(q, in)
	standIns := map[string][]relative{} // the catalogue's terms nearest each said word
	if neighbourWeight > 0 {
		forEachWord(in.said, func(w string) {
			if kept(w) {
				standIns[Stem(w)] = append(standIns[Stem(w)], ix.neighbours(w)...)
			}
		})
	}
	for _, c := range concepts {
		touched = ix.match(c.stem, 1, best, touched)
		for _, r := range relativesOf(c.stem) {
			touched = ix.match(r.stem, r.weight, best, touched)
		}
		if c.weight >= 1 {
			for _, r := range standIns[c.stem] {
				touched = ix.match(r.stem, r.weight, best, touched)
			}
		}
		for _, d := range touched {
			scores[d] += float32(c.weight) * best[d]
			best[d] = 0
		}
		touched = touched[:0]
	}
	named := map[string]bool{}
	for _, c := range concepts {
		if c.weight < 1 {
			continue // only the person's own words name a server
		}
		for _, srv := range ix.named[c.stem] {
			named[srv] = true
		}
	}
	for srv := range named { // once per server, however many of its words were used
		for _, d := range ix.members[srv] {
			scores[d] *= serverBoost
		}
	}
	if near := ix.nearness(in.said); near != nil {
		top := float32(0)
		for _, s := range scores {
			top = max(top, s)
		}
		if top == 0 {
			top = 1
		}
		for i, x := range near {
			scores[i] += float32(nearWeight) * top * x
		}
	}
	var hits []int32
	for i, s := range scores {
		if s > 0 {
			hits = append(hits, int32(i))
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return scores[hits[a]] > scores[hits[b]] })
	out := make([]Hit, len(hits))
	for i, h := range hits {
		out[i] = Hit{Tool: ix.tools[h], Score: float64(scores[h]), i: h}
	}
	return out
}

// match raises best[d] to factor times term's score in each tool d that
// uses term, noting the tools first touched.
func (ix *Index) match(term string, factor float32, best []float32, touched []int32) []int32 {
	for _, p := range ix.postings[term] {
		v := factor * p.score
		if best[p.tool] == 0 {
			touched = append(touched, p.tool)
		}
		if v > best[p.tool] {
			best[p.tool] = v
		}
	}
	return touched
}

// Called returns the indexed tools that traffic names, in order of first
// mention: the tools the model just used.
func (ix *Index) Called(traffic string) []*tools.Tool {
	var out []*tools.Tool
	seen := map[int]bool{}
	for _, line := range strings.Split(traffic, "\n") {
		name, _, _ := strings.Cut(line, " ")
		if i, ok := ix.byName[name]; ok && !seen[i] {
			seen[i] = true
			out = append(out, ix.tools[i])
		}
	}
	return out
}

// linkedServers are the words of the servers whose service a link or a
// host name in the request is on: youtu.be/x and www.youtube.com/watch
// are youtube's, github.com/acme/site is github's; next.js names none. A label of the host
// (not www, not the top-level domain) names a server when it is a word
// of the server's name or, with at least minShortName letters, the
// beginning of one. The person named the service by linking to it, so
// the word counts as theirs.
func (ix *Index) linkedServers(word string) []string {
	host := strings.ToLower(strings.TrimRight(word, ".,;:!?)"))
	_, rest, link := strings.Cut(host, "://")
	if link {
		host = rest
	}
	host, path, slash := strings.Cut(host, "/")
	host, _, _ = strings.Cut(host, ":")
	labels := strings.Split(host, ".")
	// A host: in a link, before a path, or a domain name (acme.sentry.io);
	// not a file name (next.js, main.go).
	if len(labels) < 2 || !(link || slash && path != "" || strings.HasPrefix(host, "www.") || isDomain(host)) {
		return nil
	}
	var out []string
	for _, l := range labels[:len(labels)-1] {
		if l == "www" || len(l) < minShortName || !isASCIILetters(l) {
			continue
		}
		stem := Stem(l)
		for _, w := range ix.serverWords {
			if (w == stem || strings.HasPrefix(w, l)) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}
