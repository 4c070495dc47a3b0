package selector

import (
	"cmp"
	_ "embed"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Meaning: a request and a tool that say the same thing in other words
// ("ring" and "phone", "rival" and "competitor") share no term, so BM25F
// alone cannot match them. Each common English word has a vector: the
// Universal Sentence Encoder's for the word alone, reduced to 64
// dimensions (devtools/embedgen; VECTORS-LICENSE), so words that mean
// alike are near. A tool's meaning is the weighted mean of its words'
// vectors, a request's the same of its words; how near the two are adds
// to the tool's score (nearness), and the catalogue's terms nearest to a
// word of the request stand in for it as its thesaurus relatives do
// (neighbours). docs/benchmarks.md, "Tool selection", has the figures.

//go:generate ../../../devtools/embedgen/run
//go:embed vectors.bin
var vectorsFile string

// wordVectors are the vectors of the most frequent English words, most
// frequent first; each dimension is a signed byte times scale.
type wordVectors struct {
	dim   int
	scale float32
	ids   map[string]int32
	data  string
}

// vectors reads vectorsFile once, when a request is first ranked: nothing
// at start-up (docs/benchmarks.md, "Start-up beside other agents").
var vectors = sync.OnceValue(func() *wordVectors { return readVectors(vectorsFile) })

// readVectors reads a file devtools/embedgen wrote.
func readVectors(f string) *wordVectors {
	const magic = "taivec1\n"
	if !strings.HasPrefix(f, magic) || len(f) < len(magic)+10 {
		panic("selector: vectors.bin is not a vector file; run go generate ./internal/tools/selector/")
	}
	f = f[len(magic):]
	v := &wordVectors{dim: int(binary.LittleEndian.Uint16([]byte(f[0:2])))}
	n := int(binary.LittleEndian.Uint32([]byte(f[2:6])))
	v.scale = math.Float32frombits(binary.LittleEndian.Uint32([]byte(f[6:10])))
	f = f[10:]
	v.ids = make(map[string]int32, n)
	for i := range n {
		l := int(f[0])
		v.ids[f[1:1+l]] = int32(i)
		f = f[1+l:]
	}
	if len(f) != n*v.dim {
		panic("selector: vectors.bin is cut short; run go generate ./internal/tools/selector/")
	}
	v.data = f
	return v
}

// sifA is the smoothing of the words' weights: a word used with
// probability p weighs sifA/(sifA+p), so "get" and "list" count little
// and "invoice" almost fully. p is read from the word's rank by Zipf's
// law (p ≈ 0.1/rank), the vectors being ordered by frequency.
const sifA = 1e-3

// vector is the unit vector of w and its weight, nil if w has none.
func (v *wordVectors) vector(w string) ([]float32, float32) {
	id, ok := v.ids[w]
	if !ok {
		return nil, 0
	}
	row := v.data[int(id)*v.dim : int(id+1)*v.dim]
	out := make([]float32, v.dim)
	for i := range out {
		out[i] = v.scale * float32(int8(row[i]))
	}
	normalize(out)
	return out, float32(sifA / (sifA + 0.1/float64(id+1)))
}

// meaningWeights weigh each of fields (in its order) in a tool's meaning:
// what the tool is called and what its description says first count
// most; the server, the group and the arguments' descriptions, which say
// whose it is and what it takes rather than what it does, not at all.
var meaningWeights = [...]float32{2, 0, 0, 1, 0.5, 0.3, 0, 0.3}

// meaningSpace is an index's meaning: each term's vector and weight (a
// term has the vector of the first word of the catalogue that stems to
// it), and each tool's meaning, the catalogue's mean taken away (what
// every tool shares says nothing of any one) and scaled to length 1.
type meaningSpace struct {
	dim    int
	weight []float32 // by term id; 0 where the term has no vector
	tools  []float32 // by tool
	// with are the ids of the terms that have a vector, and mat their
	// vectors in that order, side by side: what neighbours scans; row
	// gives each term id's place in with, -1 for none.
	with []int32
	mat  []float32
	row  []int32
	// near remembers neighbours' answers, by word, up to maxRemembered
	// words: the agent ranks the same request at every step of a turn.
	near       sync.Map
	remembered atomic.Int32
}

// maxRemembered bounds the words whose neighbours an index remembers.
const maxRemembered = 8192

// meanings computes the index's meaningSpace on first use, from the term
// counts NewIndex kept: no text is read again. A native tool's terms come
// from the generated native table without the words they stem from, so
// those are found by reading the native tools' text (some fifty tools).
func (ix *Index) meanings() *meaningSpace {
	ix.meaning.Do(func() {
		v := vectors()
		sp := &meaningSpace{dim: v.dim, weight: make([]float32, len(ix.termNames)), row: make([]int32, len(ix.termNames))}
		word := ix.nativeSurfaces()
		for id, term := range ix.termNames {
			w := ix.surface[id]
			if w == "" {
				w = word[term]
			}
			if w == "" {
				w = term
			}
			sp.row[id] = -1
			if vec, weight := v.vector(w); vec != nil {
				sp.weight[id] = weight
				sp.row[id] = int32(len(sp.with))
				sp.with = append(sp.with, int32(id))
				sp.mat = append(sp.mat, vec...)
			}
		}
		n, nf := len(ix.tools), len(fields)
		sp.tools = make([]float32, n*v.dim)
		mean := make([]float64, v.dim)
		for i := range n {
			row := sp.tools[i*v.dim : (i+1)*v.dim]
			for f, fw := range meaningWeights {
				if fw == 0 {
					continue
				}
				for _, c := range ix.flat[ix.from[i*nf+f]:ix.from[i*nf+f+1]] {
					if k := int(sp.row[c.term]); k >= 0 {
						a := fw * sp.weight[c.term] * float32(c.n)
						for j, x := range sp.mat[k*v.dim : (k+1)*v.dim] {
							row[j] += a * x
						}
					}
				}
			}
			normalize(row)
			for j, x := range row {
				mean[j] += float64(x)
			}
		}
		for i := range n {
			row := sp.tools[i*v.dim : (i+1)*v.dim]
			for j := range row {
				row[j] -= float32(mean[j] / float64(n))
			}
			normalize(row)
		}
		ix.space = sp
	})
	return ix.space
}

// nativeSurfaces maps each term of the native tools that no other tool
// uses to the first word of their text that stems to it.
func (ix *Index) nativeSurfaces() map[string]string {
	out := map[string]string{}
	need := map[string]bool{}
	for id, w := range ix.surface {
		if w == "" {
			need[ix.termNames[id]] = true
		}
	}
	if len(need) == 0 {
		return out
	}
	note := func(text string) {
		forEachWord(text, func(w string) {
			if s := Stem(w); need[s] && out[s] == "" && kept(w) {
				out[s] = w
			}
		})
	}
	for _, t := range ix.tools {
		if !t.Bridged() {
			note(t.Name)
			note(t.Description)
			note(t.Asks)
			note(strings.Join(newDoc(t).argNames, " "))
		}
	}
	return out
}

// normalize scales x to length 1 (a zero vector stays zero).
func normalize(x []float32) {
	s := float32(0)
	for _, a := range x {
		s += a * a
	}
	if s == 0 {
		return
	}
	r := float32(1 / math.Sqrt(float64(s)))
	for i := range x {
		x[i] *= r
	}
}

// How meaning counts (docs/benchmarks.md, "Tool selection"; both set by
// leave-one-set-out over the project's sets, TestMeaning_LeaveOneSetOut):
// nearWeight is what the nearest tool in meaning gains, as a share of the
// best BM25F score of the request (tools nearer than the catalogue's mean
// gain by the fourth power of how near, so only the nearest gain much);
// neighbourWeight is what a term of the catalogue counts for when it
// stands in for a word of the request it is near to (at least
// neighbourFloor, the cosine of their vectors), times that nearness.
var (
	nearWeight      = 0.3
	neighbourWeight = 0.5
)

const neighbourFloor = 0.6

// nearness gives each tool how near in meaning it is to the words of
// said, from 0 (no nearer than the catalogue's mean) to 1 (the nearest
// tool), raised to the fourth power; nil when no word of said has a
// vector.
func (ix *Index) nearness(said string) []float32 {
	if nearWeight == 0 {
		return nil
	}
	v := vectors()
	sp := ix.meanings()
	q := make([]float32, v.dim)
	forEachWord(said, func(w string) {
		if !kept(w) {
			return
		}
		if vec, weight := v.vector(w); vec != nil {
			for j, x := range vec {
				q[j] += weight * x
			}
		}
	})
	normalize(q)
	n := len(ix.tools)
	out := make([]float32, n)
	var sum, best float32
	for i := range n {
		var d float32
		for j, x := range sp.tools[i*v.dim : (i+1)*v.dim] {
			d += q[j] * x
		}
		out[i] = d
		sum += d
		best = max(best, d)
	}
	mean := sum / float32(n)
	if best <= mean {
		return nil // no word with a vector: every tool is as near
	}
	for i, d := range out {
		x := max(0, (d-mean)/(best-mean))
		out[i] = x * x * x * x
	}
	return out
}

// neighbourCount is how many of the catalogue's terms nearest a word of
// the request may stand in for it.
const neighbourCount = 6

// neighbours are the catalogue's terms nearest in meaning to the word w,
// at least neighbourFloor near, each weighing neighbourWeight times its
// nearness; w's own term is not among them.
func (ix *Index) neighbours(w string) []relative {
	sp := ix.meanings()
	var near []relative
	if got, ok := sp.near.Load(w); ok {
		near = got.([]relative)
	} else {
		near = ix.nearestTerms(sp, w)
		if sp.remembered.Add(1) <= maxRemembered {
			sp.near.Store(w, near)
		}
	}
	out := make([]relative, len(near))
	for i, r := range near {
		out[i] = relative{r.stem, r.weight * float32(neighbourWeight)}
	}
	return out
}

// nearestTerms is neighbours before remembering and weighing: each term
// with its cosine.
func (ix *Index) nearestTerms(sp *meaningSpace, w string) []relative {
	q, _ := vectors().vector(w)
	if q == nil {
		return nil
	}
	self := Stem(w)
	var best []relative
	floor := float32(neighbourFloor)
	for k, id := range sp.with {
		row := sp.mat[k*sp.dim : (k+1)*sp.dim : (k+1)*sp.dim]
		var d float32
		for j, x := range q {
			d += x * row[j]
		}
		if d < floor || ix.termNames[id] == self {
			continue
		}
		best = append(best, relative{ix.termNames[id], d})
		if len(best) > neighbourCount {
			slices.SortFunc(best, func(a, b relative) int { return cmp.Compare(b.weight, a.weight) })
			best = best[:neighbourCount]
			floor = best[len(best)-1].weight
		}
	}
	slices.SortFunc(best, func(a, b relative) int { return cmp.Compare(b.weight, a.weight) })
	return best
}
