package search

import (
	"fmt"
	"path/filepath"
	"strings"

	"tai/internal/textsafe"
	"tai/internal/tools"
)

// hit is one line of grep output: a matching line or a context line.
type hit struct {
	n     int
	text  string // without the line ending
	match bool
}

// fileHits is what one file contributed, in line order.
type fileHits struct {
	rel  string // slash separated, relative to the search directory; "" when a file was searched
	hits []hit
}

// Caps of grep's output.
const (
	grepLineCap  = 500 // lines of matches and context
	grepFilesCap = 1000
	lineShow     = 500 // bytes of one line shown
)

// report renders grep results. Both engines feed it, so their output is
// the same by construction: "path:line:text" for a match, "path-line-text"
// for a context line, "--" between separate groups when there is context.
type report struct {
	env       *tools.Env
	root      string // absolute: the directory searched, or the file
	filesOnly bool
	context   int

	b      strings.Builder
	lines  int
	files  int
	capped bool
}

// add renders one file's hits; false means a cap was reached.
func (r *report) add(f fileHits) bool {
	if len(f.hits) == 0 {
		return true
	}
	path := r.env.Rel(r.root)
	if f.rel != "" {
		path = r.env.Rel(filepath.Join(r.root, filepath.FromSlash(f.rel)))
	}
	r.files++
	if r.filesOnly {
		if r.files > grepFilesCap {
			r.capped = true
			return false
		}
		r.b.WriteString(path + "\n")
		return true
	}
	prev := -1
	for _, h := range f.hits {
		if r.context > 0 && r.lines > 0 && h.n != prev+1 {
			r.b.WriteString("--\n")
		}
		if r.lines++; r.lines > grepLineCap || r.b.Len() > resultCap-1024 {
			r.capped = true
			return false
		}
		sep := "-"
		if h.match {
			sep = ":"
		}
		fmt.Fprintf(&r.b, "%s%s%d%s%s\n", path, sep, h.n, sep, cut(h.text))
		prev = h.n
	}
	return true
}

// cut shortens a long line on a character boundary.
func cut(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if len(s) <= lineShow {
		return s
	}
	head := textsafe.Head(s, lineShow)
	return head + fmt.Sprintf(" … [%d more bytes]", len(s)-len(head))
}

// result is the report's text, with a note when it was cut.
func (r *report) result(pattern string) string {
	if r.files == 0 {
		return fmt.Sprintf("no matches for %q in %s", pattern, r.env.Rel(r.root))
	}
	if !r.capped {
		return r.b.String()
	}
	if r.filesOnly {
		return r.b.String() + fmt.Sprintf("[stopped at %d files; narrow the pattern, path or glob]\n", grepFilesCap)
	}
	return r.b.String() + "[stopped at the output cap; narrow the pattern, path or glob, or set files_only]\n"
}
