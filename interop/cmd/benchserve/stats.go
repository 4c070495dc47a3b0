package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// result is one peer in one scenario, over every round.
type result struct {
	rates []float64 // requests per second, one per round
	p99s  []float64 // the 99th percentile latency of each round
	lat   []time.Duration
}

func (r *result) add(lat []time.Duration, d time.Duration) {
	r.rates = append(r.rates, float64(len(lat))/d.Seconds())
	round := slices.Clone(lat)
	slices.Sort(round)
	if len(round) > 0 {
		r.p99s = append(r.p99s, float64(round[min(len(round)-1, len(round)*99/100)]))
	}
	r.lat = append(r.lat, lat...)
}

// rate is the median of the rounds' throughputs.
func (r *result) rate() float64 { return median(r.rates) }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// ratio is the median over rounds of a's figure over b's in the same
// round: runs next to each other in time share the machine's noise.
func ratio(a, b []float64) float64 {
	var q []float64
	for i := range min(len(a), len(b)) {
		q = append(q, a[i]/b[i])
	}
	return median(q)
}

func (r *result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	slices.Sort(r.lat)
	return r.lat[min(len(r.lat)-1, int(p*float64(len(r.lat))))]
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/1e3) }

func mib(kb int) string { return fmt.Sprintf("%.1f MiB", float64(kb)/1024) }

// rssKB is a process's resident set from /proc.
func rssKB(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}
