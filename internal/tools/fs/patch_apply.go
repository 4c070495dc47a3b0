package fs

import (
	"fmt"
	"strings"

	"tai/internal/textdiff"
)

// text is a file split into lines for patching. A line's content keeps
// its "\r" in a CRLF file, so what is not patched stays byte for byte.
type text struct {
	lines []string // content without the "\n"
	ends  []string // "\n", or "" for a last line without one
}

func splitText(data []byte) *text {
	t := &text{}
	for _, l := range textdiff.SplitLines(string(data)) {
		content, found := strings.CutSuffix(l, "\n")
		end := ""
		if found {
			end = "\n"
		}
		t.lines = append(t.lines, content)
		t.ends = append(t.ends, end)
	}
	return t
}

func (t *text) bytes() []byte {
	var b strings.Builder
	for i, l := range t.lines {
		b.WriteString(l)
		end := t.ends[i]
		if end == "" && i < len(t.lines)-1 {
			end = "\n" // a former last line that now has lines after it
		}
		b.WriteString(end)
	}
	return []byte(b.String())
}

func (t *text) add(line, end string) {
	t.lines, t.ends = append(t.lines, line), append(t.ends, end)
}

// sides splits a hunk into the lines it expects and the lines it leaves.
func (h *hunk) sides() (old, new []string) {
	for _, l := range h.lines {
		if l[0] != '+' {
			old = append(old, l[1:])
		}
		if l[0] != '-' {
			new = append(new, l[1:])
		}
	}
	return old, new
}

// applyHunks patches t with the hunks of one file section. Each hunk is
// placed where its old lines match, searching from the end of the previous
// hunk and preferring the spot nearest the line its header names; trailing
// whitespace (and "\r") is ignored only if no exact match exists.
func applyHunks(t *text, hunks []hunk, name string) (*text, error) {
	out := &text{}
	pos, shift := 0, 0
	for n, h := range hunks {
		old, _ := h.sides()
		hint := -1
		if h.oldStart > 0 {
			hint = h.oldStart - 1 + shift
		}
		at, err := locate(t.lines, old, pos, hint)
		if err != nil {
			return nil, fmt.Errorf("hunk %d (%s) of %s does not apply: %w", n+1, h.header, name, err)
		}
		for i := pos; i < at; i++ {
			out.add(t.lines[i], t.ends[i])
		}
		cr := h.addsCR(t.lines, at)
		k := at
		for _, l := range h.lines {
			switch l[0] {
			case ' ': // keep the file's own line, which may differ in trailing space
				out.add(t.lines[k], t.ends[k])
				k++
			case '-':
				k++
			case '+':
				out.add(l[1:]+cr, "\n")
			}
		}
		if h.oldStart > 0 {
			shift = at - (h.oldStart - 1)
		}
		pos = k
		if pos == len(t.lines) {
			out.fixEnd(h.newNoEOL())
		}
	}
	for i := pos; i < len(t.lines); i++ {
		out.add(t.lines[i], t.ends[i])
	}
	return out, nil
}

// addsCR returns "\r" when the hunk's added lines need one: the hunk was
// written without carriage returns but the lines it matched (or, for a
// hunk without old lines, the line before it) end in one.
func (h *hunk) addsCR(lines []string, at int) string {
	for _, l := range h.lines {
		if strings.HasSuffix(l, "\r") {
			return ""
		}
	}
	old, _ := h.sides()
	sample := lines[at:min(at+len(old), len(lines))]
	if len(old) == 0 && at > 0 {
		sample = lines[at-1 : at]
	}
	cr := 0
	for _, l := range sample {
		if strings.HasSuffix(l, "\r") {
			cr++
		}
	}
	if len(sample) > 0 && cr*2 > len(sample) {
		return "\r"
	}
	return ""
}

// fixEnd drops the last line's ending when a hunk that reached the end of
// the file says "\ No newline at end of file" on its new side.
func (t *text) fixEnd(noEOL bool) {
	if noEOL && len(t.lines) > 0 {
		t.ends[len(t.lines)-1] = ""
	}
}

// locate finds where old occurs in lines at or after from.
func locate(lines, old []string, from, hint int) (int, error) {
	if len(old) == 0 {
		if len(lines) == 0 {
			return 0, nil
		}
		if hint < 0 {
			return 0, fmt.Errorf("it has no context lines and no line number to place it")
		}
		return min(max(hint, from), len(lines)), nil
	}
	for _, same := range []func(a, b string) bool{exactLine, looseLine} {
		var found []int
		for i := from; i+len(old) <= len(lines); i++ {
			if matchAt(lines, old, i, same) == len(old) {
				found = append(found, i)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1 && hint < 0:
			return 0, fmt.Errorf("its lines occur %d times and its header has no line number; add context", len(found))
		case len(found) > 1:
			return nearest(found, hint), nil
		}
	}
	return 0, mismatch(lines, old, from, hint)
}

func exactLine(a, b string) bool { return a == b }

func looseLine(a, b string) bool {
	return strings.TrimRight(a, " \t\r") == strings.TrimRight(b, " \t\r")
}

// matchAt counts how many leading lines of old match lines from i.
func matchAt(lines, old []string, i int, same func(a, b string) bool) int {
	n := 0
	for n < len(old) && i+n < len(lines) && same(lines[i+n], old[n]) {
		n++
	}
	return n
}

func nearest(found []int, hint int) int {
	best := found[0]
	for _, f := range found[1:] {
		if abs(f-hint) < abs(best-hint) {
			best = f
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// mismatch explains a hunk that matches nowhere by the spot that matches
// longest, nearest the hint: which line differs, and how.
func mismatch(lines, old []string, from, hint int) error {
	best, bestN := -1, -1
	for i := from; i < len(lines); i++ {
		n := matchAt(lines, old, i, looseLine)
		if n > bestN || (n == bestN && hint >= 0 && abs(i-hint) < abs(best-hint)) {
			best, bestN = i, n
		}
	}
	if best < 0 || bestN == 0 {
		return fmt.Errorf("its first line %q is not in the file (from line %d on)", clip(old[0]), from+1)
	}
	if best+bestN >= len(lines) {
		return fmt.Errorf("it runs past the end of the file after line %d", len(lines))
	}
	return fmt.Errorf("at line %d the file has %q where the hunk expects %q",
		best+bestN+1, clip(lines[best+bestN]), clip(old[bestN]))
}

// clip shortens a line for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
