package selector_test

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// TestSentenceEncoderFusion measures what a sentence encoder would add to
// the selector over the sets written on the whole catalogue (wholeSets):
// docs/benchmarks.md, "A sentence encoder on both sides". It runs only
// with TAI_SENTENCE_DIR set, in two passes that devtools/embedgen/sentences
// drives: the first writes the texts to encode into that folder (each
// tool's name and the start of its description, and each set's requests,
// one a line); the encoder then writes, beside each NAME.txt, NAME.f32
// (one vector of float32s a line, little-endian); the second pass reads
// them and logs, per set, how often the encoder alone ranks a request's
// tool among the 250 nearest, and the recall of tai's ranking with each
// tool's score raised by weight × the best score × its nearness squared
// (nearness as in meaning.go, 0 at the catalogue's mean to 1 for the
// nearest), cut at as many tools as tai offers for that request at the
// default model's window. Nothing here is a target: the test fails only
// when the files are malformed.
func TestSentenceEncoderFusion(t *testing.T) {
	dir := os.Getenv("TAI_SENTENCE_DIR")
	if dir == "" {
		t.Skip("set TAI_SENTENCE_DIR (devtools/embedgen/sentences)")
	}
	cat := catalogueOf(t, serverFolders...)
	texts := make([]string, len(cat))
	for i, tool := range cat {
		name := tool.Name
		if tool.Bridged() {
			name = tool.Remote
		}
		texts[i] = oneLine(strings.NewReplacer("_", " ", "-", " ").Replace(name) + ". " + textsafe.Head(tool.Description, 600))
	}
	sets := map[string][]query{}
	for _, set := range wholeSets {
		sets[set] = loadQueriesFrom(t, cat, filepath.Join(set, "queries.json"))
	}
	if _, err := os.Stat(filepath.Join(dir, "tools.f32")); os.IsNotExist(err) {
		writeLines(t, filepath.Join(dir, "tools.txt"), texts)
		for set, qs := range sets {
			lines := make([]string, len(qs))
			for i, q := range qs {
				lines[i] = oneLine(q.Query)
			}
			writeLines(t, filepath.Join(dir, set+".txt"), lines)
		}
		t.Logf("wrote the texts to encode into %s; encode each NAME.txt into NAME.f32 and run again", dir)
		return
	}
	toolVecs := readVectors(t, filepath.Join(dir, "tools.f32"), len(cat))
	ix := selector.NewIndex(cat)
	window := defaultModelWindow(t)
	at := map[*tools.Tool]int{}
	for j, tool := range cat {
		at[tool] = j
	}
	for _, set := range wholeSets {
		qs := sets[set]
		queryVecs := readVectors(t, filepath.Join(dir, set+".f32"), len(qs))
		alone := 0
		fused := map[float64]int{}
		weights := []float64{0, 0.2, 0.3, 0.5}
		for i, q := range qs {
			near := nearnessTo(queryVecs[i], toolVecs)
			order := make([]int, len(cat))
			for j := range order {
				order[j] = j
			}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(near[b], near[a]) })
			if slices.ContainsFunc(order[:250], func(j int) bool { return slices.Contains(q.Tools, cat[j].Name) }) {
				alone++
			}
			k := len(selector.Selector{ContextTokens: window}.Select(ix, selector.Request{Query: selector.Query{Input: q.Query}}).Tools)
			score := make([]float64, len(cat))
			hits := ix.Rank(selector.Query{Input: q.Query})
			for _, w := range weights {
				clear(score)
				for _, h := range hits { // best first
					score[at[h.Tool]] = h.Score / hits[0].Score
				}
				for j := range score {
					score[j] += w * near[j] * near[j]
				}
				slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
				if slices.ContainsFunc(order[:min(k, len(order))], func(j int) bool { return slices.Contains(q.Tools, cat[j].Name) }) {
					fused[w]++
				}
			}
		}
		line := fmt.Sprintf("%s: encoder alone, tool among the 250 nearest %d of %d; tai cut at its offer %d", set, alone, len(qs), fused[0])
		for _, w := range weights[1:] {
			line += fmt.Sprintf(", fused ×%.1f %d", w, fused[w])
		}
		t.Log(line)
	}
}

// nearnessTo is how near each tool's vector is to q: the cosine, mapped
// from the catalogue's mean (0) to the nearest tool (1), 0 below the mean.
func nearnessTo(q []float64, toolVecs [][]float64) []float64 {
	out := make([]float64, len(toolVecs))
	sum, best := 0.0, math.Inf(-1)
	for j, v := range toolVecs {
		out[j] = cosine(q, v)
		sum += out[j]
		best = max(best, out[j])
	}
	mean := sum / float64(len(out))
	for j, c := range out {
		out[j] = 0
		if best > mean {
			out[j] = max(0, (c-mean)/(best-mean))
		}
	}
	return out
}

func cosine(a, b []float64) float64 {
	var d, na, nb float64
	for i := range a {
		d += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

// oneLine is s with every run of white space one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readVectors reads n vectors of equal length from an encoder's file of
// float32s.
func readVectors(t *testing.T, path string, n int) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (encode %s first)", err, strings.TrimSuffix(path, ".f32")+".txt")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || st.Size()%int64(4*n) != 0 {
		t.Fatalf("%s: %d bytes is not %d vectors of float32s", path, st.Size(), n)
	}
	dim := int(st.Size()) / (4 * n)
	r := bufio.NewReader(f)
	out := make([][]float64, n)
	buf := make([]byte, 4*dim)
	for i := range out {
		if _, err := io.ReadFull(r, buf); err != nil {
			t.Fatal(err)
		}
		out[i] = make([]float64, dim)
		for j := range out[i] {
			out[i][j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:])))
		}
	}
	return out
}
