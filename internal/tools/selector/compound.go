package selector

// Compound words. Servers often run words together in their names and
// their tools' names ("browserbase", "createmessage", "getactivecycle"),
// so a request that says "browser" or "message" shares no word with them.
// A word of a name field written as one run of letters is also indexed as
// the parts it is made of, when each part is a term the catalogue uses on
// its own, in at least two tools and in as many as the compound.

const (
	minCompound = 7 // shortest word tried as a compound
	minPart     = 3 // shortest part
	maxParts    = 4
)

// compounds splits words by the catalogue's terms.
type compounds struct {
	lx   *lexicon // the catalogue's terms and the tools using each
	memo map[string][]int32
}

// parts returns the term ids of the compounds in text.
func (c compounds) parts(text string) []int32 {
	var out []int32
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
func (c compounds) split(w string) []int32 {
	n := len(w)
	if n < minCompound || !isASCIILetters(w) {
		return nil
	}
	need := max(2, c.lx.dfOf(Stem(w)))
	// best[i] is the fewest parts that spell w[:i], 0 when none do.
	best := make([]int, n+1)
	from := make([]int, n+1)
	for i := minPart; i <= n; i++ {
		for j := 0; j+minPart <= i; j++ {
			if j > 0 && best[j] == 0 || best[j] >= maxParts || i-j == n {
				continue
			}
			part := w[j:i]
			if stopWords()[part] || c.lx.dfOf(Stem(part)) < need {
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
	out := make([]int32, best[n])
	for i, k := n, best[n]-1; i > 0; i, k = from[i], k-1 {
		out[k] = c.lx.ids[Stem(w[from[i]:i])]
	}
	return out
}
