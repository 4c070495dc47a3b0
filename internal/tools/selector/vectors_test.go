package selector

import (
	"math"
	"testing"
)

// vectors.bin is read whole and sound: 50,000 distinct plain words of 64
// dimensions, each vector of length about 1 (devtools/embedgen scales
// each to 1 before rounding), and the words people use in requests have
// one.
func TestVectors_File(t *testing.T) {
	v := vectors()
	if v.dim != 64 || len(v.ids) != 50000 || len(v.data) != 50000*64 {
		t.Fatalf("%d dimensions, %d distinct words, %d bytes; want 64, 50000, %d", v.dim, len(v.ids), len(v.data), 50000*64)
	}
	for w, id := range v.ids {
		for i, c := range []byte(w) {
			if !(c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
				t.Fatalf("word %d %q is not a plain word", id, w)
			}
		}
		vec, weight := v.vector(w)
		var n float64
		for _, x := range vec {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-3 || weight <= 0 || weight >= 1 {
			t.Fatalf("%q: length² %.4f, weight %.4f", w, n, weight)
		}
	}
	for _, w := range []string{"invoice", "weather", "deploy", "repository", "calendar", "gpu"} {
		if vec, _ := v.vector(w); vec == nil {
			t.Errorf("%q has no vector", w)
		}
	}
}

// BenchmarkVectorsRead times reading vectors.bin, which the first
// selection of a process does once.
func BenchmarkVectorsRead(b *testing.B) {
	for i := 0; i < b.N; i++ {
		readVectors(vectorsFile)
	}
}
