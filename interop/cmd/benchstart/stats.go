package main

import (
	"fmt"
	"io"
	"log"
	"slices"
	"strings"
	"time"
)

// summary is an agent's starts in one mode.
type summary struct {
	median, p90 time.Duration
	rss         int64  // median of the peaks, bytes
	failed      string // why there are no figures
}

// measureMode runs every agent once unmeasured, then rounds times, the
// order rotated each round.
func measureMode(agents []*agent, m mode, f *fake, rounds int) map[string]summary {
	out := map[string]summary{}
	var live []*agent
	for _, a := range agents {
		if m == modeFirst && a.oneShot == nil {
			out[a.name] = summary{failed: "cannot be pointed at a local server"}
			continue
		}
		if _, err := runOnce(a, m, f); err != nil {
			log.Print(err)
			out[a.name] = summary{failed: "failed, see the log"}
			continue
		}
		live = append(live, a)
	}
	samples := map[string][]sample{}
	for r := range rounds {
		for i := range live {
			a := live[(i+r)%len(live)]
			if _, bad := out[a.name]; bad {
				continue
			}
			s, err := runOnce(a, m, f)
			if err != nil {
				log.Print(err)
				out[a.name] = summary{failed: "failed, see the log"}
				continue
			}
			if *verbose {
				log.Printf("%s %s: %v, %d MiB", a.name, m, s.wall.Round(time.Millisecond), s.maxRSS>>20)
			}
			samples[a.name] = append(samples[a.name], s)
		}
	}
	for name, ss := range samples {
		if _, bad := out[name]; !bad {
			out[name] = summarize(ss)
		}
	}
	return out
}

// summarize takes the median and nearest-rank p90 of the wall times and
// the median of the peak resident sets.
func summarize(ss []sample) summary {
	walls := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.wall, s.maxRSS
	}
	slices.Sort(walls)
	slices.Sort(rss)
	p90 := (len(walls)*9+9)/10 - 1
	return summary{median: walls[len(walls)/2], p90: walls[p90], rss: rss[len(rss)/2]}
}

func printTable(w io.Writer, agents []*agent, results map[string]map[mode]summary) {
	head := []string{"agent"}
	for _, m := range modes {
		head = append(head, fmt.Sprintf("`%s` median / p90", m), "peak RSS")
		if m == modeFirst {
			head[len(head)-2] = "first model request median / p90"
		}
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, a := range agents {
		row := []string{a.name + " " + a.version}
		for _, m := range modes {
			s := results[a.name][m]
			if s.failed != "" {
				row = append(row, s.failed, "")
				continue
			}
			row = append(row, ms(s.median)+" / "+ms(s.p90), fmt.Sprintf("%.0f MiB", float64(s.rss)/(1<<20)))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}

func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
}
