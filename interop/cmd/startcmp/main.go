// Command startcmp compares the start-up of builds of one program: it runs
// each binary with the same arguments, interleaved and in rotating order,
// and prints the median and p90 wall time and the median peak RSS of each.
// docs/benchmarks.md uses it to weigh a dependency: tai built with and
// without a library linked in.
//
//	go run ./cmd/startcmp -rounds 40 -- /path/tai-a /path/tai-b -- --version
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 40, "measured starts of each binary")
	flag.Parse()
	var bins, args []string
	rest := flag.Args()
	if i := slices.Index(rest, "--"); i >= 0 {
		bins, args = rest[:i], rest[i+1:]
	} else {
		bins = rest
	}
	if len(bins) == 0 {
		fmt.Fprintln(os.Stderr, "startcmp: name the binaries to compare, then -- and their arguments")
		os.Exit(2)
	}
	times := make([][]time.Duration, len(bins))
	rss := make([][]int64, len(bins))
	for r := -1; r < *rounds; r++ { // round -1 warms the page cache
		for k := range bins {
			i := (k + max(r, 0)) % len(bins)
			d, m, err := start(bins[i], args)
			if err != nil {
				fmt.Fprintf(os.Stderr, "startcmp: %s: %v\n", bins[i], err)
				os.Exit(1)
			}
			if r >= 0 {
				times[i] = append(times[i], d)
				rss[i] = append(rss[i], m)
			}
		}
	}
	fmt.Println("| binary | median | p90 | peak RSS |")
	fmt.Println("|---|---|---|---|")
	for i, b := range bins {
		slices.Sort(times[i])
		slices.Sort(rss[i])
		n := len(times[i])
		fmt.Printf("| %s | %.2f ms | %.2f ms | %.1f MiB |\n", b, ms(times[i][n/2]), ms(times[i][n*9/10]), float64(rss[i][n/2])/1024)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// start runs bin once and returns its wall time and peak RSS in KiB.
func start(bin string, args []string) (time.Duration, int64, error) {
	cmd := exec.Command(bin, args...)
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, err
	}
	d := time.Since(t0)
	var maxrss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxrss = ru.Maxrss
	}
	return d, maxrss, nil
}
