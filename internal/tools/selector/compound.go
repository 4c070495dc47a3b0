package selector

// Compound words. Servers often run words together ("browserbase",
// "createmessage", "getactivecycle", "firecrawl"), so a request that
// says "browser" or "message" shares no word with them. A word the
// catalogue writes as one run of letters is also indexed as the parts it
// is made of, when each part is a word the catalogue uses on its own more
// widely than the compound.

const (
	minCompound = 7 // shortest word tried as a compound
	minPart     = 3 // shortest part
	maxParts    = 4
)

// wordUse counts, for each lower-cased word, the tools that use it.
type wordUse map[string]int

// countWords notes the words of one tool's texts.
func (u wordUse) countWords(texts []string) {
	seen := map[string]bool{}
	for _, text := range texts {
		forEachWord(text, func(w string) {
			if !seen[w] {
				seen[w] = true
				u[w]++
			}
		})
	}
}

// parts splits w into the fewest words of the catalogue, each used by at
// least two tools and by at least as many as w itself; nil when w is no
// such compound.
func (u wordUse) parts(w string) []string {
	n := len(w)
	if n < minCompound || !isASCIILetters(w) {
		return nil
	}
	need := max(2, u[w])
	// best[i] is the fewest parts that spell w[:i], 0 when none do.
	best := make([]int, n+1)
	from := make([]int, n+1)
	best[0] = 0
	for i := minPart; i <= n; i++ {
		for j := 0; j+minPart <= i; j++ {
			if j > 0 && best[j] == 0 || best[j] >= maxParts {
				continue
			}
			if i-j == n || u[w[j:i]] < need {
				continue // the whole word is no split of itself
			}
			if c := best[j] + 1; best[i] == 0 || c < best[i] {
				best[i], from[i] = c, j
			}
		}
	}
	if best[n] < 2 {
		return nil
	}
	var out []string
	for i := n; i > 0; i = from[i] {
		out = append([]string{w[from[i]:i]}, out...)
	}
	return out
}

// compoundParts returns the stems of the parts of the compounds in text.
func (u wordUse) compoundParts(text string) []string {
	var out []string
	forEachWord(text, func(w string) {
		for _, p := range u.parts(w) {
			if !stopWords[p] {
				out = append(out, Stem(p))
			}
		}
	})
	return out
}
