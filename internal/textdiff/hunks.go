package textdiff

import (
	"fmt"
	"strings"
)

// hunks cuts an edit script into runs of changes with up to diffContext
// kept lines around them; changes at most twice that apart share a hunk.
func hunks(script []edit) [][]edit {
	var out [][]edit
	start, end := -1, -1 // the current hunk's first line and last change
	flush := func() {
		out = append(out, script[start:min(end+diffContext, len(script)-1)+1])
	}
	for idx, e := range script {
		if e.op == ' ' {
			continue
		}
		lo := max(idx-diffContext, 0)
		if start >= 0 && lo > end+diffContext+1 {
			flush()
			start = -1
		}
		if start < 0 {
			start = lo
		}
		end = idx
	}
	if start >= 0 {
		flush()
	}
	return out
}

// writeHunk writes one hunk with its header; lines without a final
// newline get the "\ No newline at end of file" marker.
func writeHunk(sb *strings.Builder, h []edit, a, b []string) {
	var na, nb int
	for _, e := range h {
		if e.op != '+' {
			na++
		}
		if e.op != '-' {
			nb++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", span(h[0].i, na), span(h[0].j, nb))
	for _, e := range h {
		line := ""
		switch e.op {
		case '+':
			line = b[e.j]
		default:
			line = a[e.i]
		}
		sb.WriteByte(e.op)
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// span renders a hunk range: the 1-based first line and the count, or for
// an empty range the line it follows.
func span(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
