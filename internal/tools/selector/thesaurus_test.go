package selector

import (
	"strings"
	"testing"
)

// eagerRelatives reads the hand groups and the whole WordNet table into a
// map at once, as the selector did before relativesOf: the reference the
// on-demand lookup must agree with.
func eagerRelatives() map[string]relatives {
	m := map[string]relatives{}
	add := func(from, to string, w float32) {
		rs := m[from]
		rs.add(from, to, w)
		m[from] = rs
	}
	for _, g := range related {
		var stems []string
		for _, w := range strings.Fields(g) {
			stems = append(stems, Stem(w))
		}
		for _, s := range stems {
			for _, o := range stems {
				add(s, o, expansionWeight)
			}
		}
	}
	for _, line := range strings.Split(wordnetTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		head, broader, _ := strings.Cut(line, " | ")
		words := strings.Fields(head)
		key := phraseKey(strings.Split(words[0], "_"))
		for _, w := range words[1:] {
			add(key, Stem(w), synonymWeight)
		}
		for _, w := range strings.Fields(broader) {
			add(key, Stem(w), broaderWeight)
		}
	}
	return m
}

// TestRelativesOf_SameAsWholeTable holds the on-demand lookup to the whole
// table read at once: for every key the table and the groups have, and for
// words near them that they do not (every word of the table, stemmed, and
// each key with a letter more or less), the same relatives at the same
// weights, and none where the whole table has none.
func TestRelativesOf_SameAsWholeTable(t *testing.T) {
	prev := ""
	for line := range strings.Lines(wordnetTable) {
		if head := headword(line); line[0] != '#' && head <= prev {
			t.Fatalf("the WordNet table has %q after %q: it must be sorted by word", head, prev)
		} else if line[0] != '#' {
			prev = head
		}
	}
	want := eagerRelatives()
	probes := map[string]bool{"": true, "y": true, "_": true}
	for k := range want {
		probes[k], probes[k+"s"], probes[k[:len(k)-1]] = true, true, true
	}
	for _, w := range strings.Fields(strings.NewReplacer("|", " ", "_", " ").Replace(wordnetTable)) {
		probes[Stem(w)] = true
	}
	for _, g := range related {
		for _, w := range strings.Fields(g) {
			probes[w], probes[Stem(w)] = true, true
		}
	}
	if len(want) < 5000 || len(probes) < 2*len(want) {
		t.Fatalf("%d keys, %d probes: the table looks truncated", len(want), len(probes))
	}
	for p := range probes {
		got := relativesOf(p)
		if (got == nil) != (len(want[p]) == 0) {
			t.Errorf("relativesOf(%q) = %v; the whole table has %v", p, got, want[p])
			continue
		}
		if len(got) != len(want[p]) {
			t.Errorf("relativesOf(%q) has %d relatives; the whole table %d", p, len(got), len(want[p]))
			continue
		}
		weights := map[string]float32{}
		for _, r := range want[p] {
			weights[r.stem] = r.weight
		}
		for _, r := range got {
			if w, ok := weights[r.stem]; !ok || w != r.weight {
				t.Errorf("relativesOf(%q): %s at %v; the whole table has it at %v (present: %v)", p, r.stem, r.weight, w, ok)
			}
		}
	}
}

// TestRelativesOf_Concurrent looks the same words up from several
// goroutines at once, as concurrent Ranks of one Index do: each gets the
// whole table's relatives (run with -race, no data race either).
func TestRelativesOf_Concurrent(t *testing.T) {
	keys := []string{"delet", "folder", "get_rid_of", "sum_up", "shut_down", "copy", "cop", "run", "search", "zzzz"}
	want := eagerRelatives()
	knownRelatives.Clear() // as in a fresh process: every goroutine may be the first
	done := make(chan string, 8*len(keys))
	for g := 0; g < 8; g++ {
		go func() {
			for _, k := range keys {
				if len(relativesOf(k)) != len(want[k]) {
					done <- k
					continue
				}
				done <- ""
			}
		}()
	}
	for range 8 * len(keys) {
		if k := <-done; k != "" {
			t.Errorf("relativesOf(%q) from several goroutines: %d relatives, want %d", k, len(relativesOf(k)), len(want[k]))
		}
	}
}
