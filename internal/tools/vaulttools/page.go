package vaulttools

import (
	"fmt"
	"strings"
	"tai/internal/textsafe"
	"unicode/utf8"
)

// pageMax bounds one page of a record: MCP_RESULT_MAX, so a page is never
// itself spilled.
const pageMax = 64 << 10

// Default page sizes.
const (
	defaultBytes = 16 << 10
	defaultLines = 400
)

// page is one slice of a body, in the body's own units.
type page struct {
	text        string
	first, last int // 1-based, inclusive; last < first when text is empty
	total       int
	unit        string // "bytes" or "lines"
	next        int    // offset that continues, or 0 at the end
}

// label says which part of the body a page is: "bytes 1–16384 of 200000;
// continue with offset 16384".
func (p page) label() string {
	s := fmt.Sprintf("%s %d–%d of %d", p.unit, p.first, p.last, p.total)
	switch {
	case p.next > 0:
		s += fmt.Sprintf("; continue with offset %d", p.next)
	case p.first == 1:
		s += " (all of it)"
	default:
		s += " (the end)"
	}
	return s
}

// byteRange returns up to limit bytes of body after skipping offset,
// moved to character boundaries so no character is split: a start inside
// a character moves back to its beginning, an end inside one moves back
// before it (or past it, when the page would otherwise be empty).
func byteRange(body string, offset, limit int) (page, error) {
	total := len(body)
	if offset >= total {
		return page{}, fmt.Errorf("offset %d is past the end (%d bytes)", offset, total)
	}
	start := len(textsafe.Head(body, offset))
	end := len(textsafe.Head(body, min(start+min(limit, pageMax), total)))
	if end <= start {
		_, size := utf8.DecodeRuneInString(body[start:])
		end = start + size
	}
	p := page{text: body[start:end], first: start + 1, last: end, total: total, unit: "bytes"}
	if end < total {
		p.next = end
	}
	return p, nil
}

// lineRange returns up to limit lines of body after skipping offset lines,
// stopping early rather than pass pageMax bytes. A line is its text and
// its newline; a final line without one still counts.
func lineRange(body string, offset, limit int) (page, error) {
	total := strings.Count(body, "\n")
	if !strings.HasSuffix(body, "\n") {
		total++
	}
	if offset >= total {
		return page{}, fmt.Errorf("offset %d is past the end (%d lines)", offset, total)
	}
	start := 0
	for range offset {
		start += strings.IndexByte(body[start:], '\n') + 1
	}
	end, n := start, 0
	for n < limit && end < len(body) {
		lineEnd := len(body)
		if i := strings.IndexByte(body[end:], '\n'); i >= 0 {
			lineEnd = end + i + 1
		}
		if lineEnd-start > pageMax {
			if n == 0 {
				return page{}, fmt.Errorf("line %d alone is %d bytes, over the %d KiB page; read it with unit \"bytes\" and offset %d",
					offset+1, lineEnd-end, pageMax>>10, start)
			}
			break
		}
		end, n = lineEnd, n+1
	}
	p := page{text: body[start:end], first: offset + 1, last: offset + n, total: total, unit: "lines"}
	if offset+n < total {
		p.next = offset + n
	}
	return p, nil
}
