// Command initcost measures what linking a library costs every start of a
// Go program before main runs: the package initialisation of goldmark
// (with its GitHub extensions) and of google/jsonschema-go, the two
// libraries tai's own Markdown parser and JSON Schema validator stand in
// for (docs/benchmarks.md, "What a library costs at start-up"). It runs
// itself -runs times with GODEBUG=inittrace=1 and prints, for each of the
// libraries' packages, the median of their initialisation times, and the
// sum for each library.
//
//	go run ./cmd/initcost -runs 41
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// libraries are the module paths measured.
var libraries = []string{"github.com/yuin/goldmark", "github.com/google/jsonschema-go"}

func main() {
	child := flag.Bool("child", false, "start and exit (what is measured)")
	runs := flag.Int("runs", 41, "starts to measure")
	flag.Parse()
	if *child {
		if flag.NArg() > 0 { // never: keeps both libraries linked and used
			s, _ := jsonschema.For[struct{ A int }](nil)
			var b bytes.Buffer
			_ = goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(s.Type), &b)
		}
		return
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "initcost:", err)
		os.Exit(1)
	}
	times := map[string][]float64{} // package → init ms per run
	for range *runs {
		cmd := exec.Command(self, "-child")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "initcost: %v\n%s", err, out)
			os.Exit(1)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			// init PKG @T ms, D ms clock, B bytes, A allocs: f[4] is D
			f := strings.Fields(sc.Text())
			if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
				continue
			}
			if ms, err := strconv.ParseFloat(f[4], 64); err == nil {
				times[f[1]] = append(times[f[1]], ms)
			}
		}
	}
	fmt.Printf("%d starts, median of each package's initialisation\n\n| package | ms |\n|---|---|\n", *runs)
	sums := map[string]float64{}
	pkgs := slices.Sorted(func(yield func(string) bool) {
		for p := range times {
			if !yield(p) {
				return
			}
		}
	})
	for _, p := range pkgs {
		for _, lib := range libraries {
			if strings.HasPrefix(p, lib) {
				m := median(times[p])
				sums[lib] += m
				fmt.Printf("| %s | %.3f |\n", p, m)
			}
		}
	}
	fmt.Println()
	for _, lib := range libraries {
		fmt.Printf("| %s, all its packages | %.2f |\n", lib, sums[lib])
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
