// Package textdiff computes line diffs (Myers) and renders them as unified
// diffs, for consent screens and tool-definition changes.
package textdiff

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each change.
const diffContext = 3

// maxEdits bounds the line diff's search; beyond it the changed middle of
// the file is shown as removed and re-added, a correct but longer diff.
const maxEdits = 2000

// Unified renders the change from a to b as a unified diff headed
// "--- from" and "+++ to", or "" when they are equal. apply_patch accepts
// what it produces.
func Unified(from, to string, a, b []byte) string {
	al, bl := SplitLines(string(a)), SplitLines(string(b))
	ops := diffLines(al, bl)
	if len(ops) == 0 {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks(ops) {
		writeHunk(&sb, h, al, bl)
	}
	return sb.String()
}

// SplitLines splits s into lines that keep their "\n"; a last line
// without one stays as it is.
func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// edit is one line of an edit script: a line of a kept (' '), deleted
// ('-') or inserted ('+'), at index i of a and j of b.
type edit struct {
	op   byte
	i, j int
}

// diffLines returns the changes turning a into b, each with its position,
// or nil when a equals b. Common ends are trimmed before Myers' algorithm
// runs on what remains.
func diffLines(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	if pre == len(a) && pre == len(b) {
		return nil
	}
	var script []edit
	for i := 0; i < pre; i++ {
		script = append(script, edit{' ', i, i})
	}
	for _, e := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		script = append(script, edit{e.op, e.i + pre, e.j + pre})
	}
	for k := 0; k < suf; k++ {
		script = append(script, edit{' ', len(a) - suf + k, len(b) - suf + k})
	}
	return script
}

// myers computes a shortest edit script, or removal of all of a and
// insertion of all of b when it would take more than maxEdits edits.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	off := n + m + 1
	v := make([]int, 2*off+1)
	var trace [][]int
	for d := 0; d <= n+m && d <= maxEdits; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m, d)
			}
		}
	}
	var script []edit
	for i := range a {
		script = append(script, edit{'-', i, 0})
	}
	for j := range b {
		script = append(script, edit{'+', n, j})
	}
	return script
}

// backtrack walks the saved frontiers from (n, m) back to the origin.
// trace[d] holds v[-d..d] as it was before step d.
func backtrack(trace [][]int, n, m, d int) []edit {
	var rev []edit
	x, y := n, m
	for ; d >= 0; d-- {
		vd := trace[d] // index k+d
		at := func(k int) int { return vd[k+d] }
		k := x - y
		var pk int
		if d == 0 {
			pk = 0
		} else if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := 0
		if d > 0 {
			px = at(pk)
		}
		py := px - pk
		for x > px && y > py && (d > 0 || x > 0) {
			x, y = x-1, y-1
			rev = append(rev, edit{' ', x, y})
		}
		if d == 0 {
			break
		}
		if x == px {
			rev = append(rev, edit{'+', x, y - 1})
		} else {
			rev = append(rev, edit{'-', x - 1, y})
		}
		x, y = px, py
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
