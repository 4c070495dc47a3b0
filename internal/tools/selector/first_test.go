package selector_test

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"tai/internal/catalog"
	"tai/internal/tools/selector"
)

// firstChild is the environment variable under which TestFirstSelection
// is the child process of BenchmarkFirstSelection.
const firstChild = "TAI_SELECTOR_FIRST_CHILD"

// BenchmarkFirstSelection times what tai's first model request pays for
// choosing tools in a fresh process, where nothing the selector builds
// lazily exists yet: building the native catalogue, indexing it, and the
// first selection. Each iteration is a new process (this test binary
// running TestFirstSelection), which times the three in-process and
// prints them; process start-up is not counted.
func BenchmarkFirstSelection(b *testing.B) {
	var native, index, sel time.Duration
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFirstSelection$", "-test.count=1")
		cmd.Env = append(os.Environ(), firstChild+"=1")
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("child: %v\n%s", err, out)
		}
		var n, x, s time.Duration
		if _, err := fmt.Sscanf(string(out), "first %d %d %d", &n, &x, &s); err != nil {
			b.Fatalf("child printed %q: %v", out, err)
		}
		native, index, sel = native+n, index+x, sel+s
	}
	b.ReportMetric(float64(native.Microseconds())/float64(b.N), "native-µs")
	b.ReportMetric(float64(index.Microseconds())/float64(b.N), "index-µs")
	b.ReportMetric(float64(sel.Microseconds())/float64(b.N), "select-µs")
	b.ReportMetric(float64((native+index+sel).Microseconds())/float64(b.N), "first-µs")
}

// TestFirstSelection, as BenchmarkFirstSelection's child, makes the first
// selection of a fresh process and prints its times; run on its own, it
// checks that the first selection offers the tool a plain request wants.
func TestFirstSelection(t *testing.T) {
	t0 := time.Now()
	cat := catalog.Native()
	t1 := time.Now()
	ix := selector.NewIndex(cat)
	t2 := time.Now()
	got := selector.Selector{}.Select(ix, selector.Request{Query: selector.Query{Input: "remove the old build folder"}}).Tools
	t3 := time.Now()
	if os.Getenv(firstChild) != "" {
		fmt.Printf("first %d %d %d\n", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2))
	}
	if !slices.Contains(names(got), "delete_path") {
		t.Errorf("first selection for removing a folder offered %v; want delete_path", names(got))
	}
}

// BenchmarkIndexNative times indexing tai's native catalogue, which every
// start of tai does before its first model request.
func BenchmarkIndexNative(b *testing.B) {
	cat := catalog.Native()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		selector.NewIndex(cat)
	}
}

// BenchmarkNative times building the native catalogue.
func BenchmarkNative(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		catalog.Native()
	}
}
