package repl

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Colours of rendered Markdown (SGR parameters).
const (
	sgrBold      = "1"
	sgrDim       = "2"
	sgrItalic    = "3"
	sgrUnderline = "4"
	sgrStrike    = "9"
	sgrHeading   = "1;36"
	sgrHeading1  = "1;4;36"
	sgrCode      = "33"
	sgrLink      = "4;34"
	sgrQuote     = "2;3"
)

// renderMarkdown renders src, cleaned text of one or more blocks, for a
// terminal width columns wide.
func renderMarkdown(src string, width int) string {
	if width <= 0 {
		width = 80
	}
	r := &mdRenderer{width: min(width, 120)}
	doc := parseMarkdown(src)
	var b strings.Builder
	r.blocks(&b, doc, "", "")
	return b.String()
}

type mdRenderer struct {
	width int
}

// blocks renders the children of n, each line starting with first (the
// first line) or rest (the others) as prefixes.
func (r *mdRenderer) blocks(b *strings.Builder, n *mdNode, first, rest string) {
	i := 0
	for c := n.first; c != nil; c = c.next {
		p := rest
		if i == 0 {
			p = first
		}
		if i > 0 && !isTightItemBlock(c) {
			b.WriteString(strings.TrimRight(rest, " ") + "\n")
		}
		r.block(b, c, p, rest)
		i++
	}
}

// isTightItemBlock is a block that follows its sibling without a blank
// line: a tight list's text, or a list nested in one.
func isTightItemBlock(n *mdNode) bool {
	if l := n.parent; l != nil && l.kind == mdItem && l.parent != nil && l.parent.tight {
		return true
	}
	return n.kind == mdItem
}

func (r *mdRenderer) block(b *strings.Builder, n *mdNode, first, rest string) {
	switch n.kind {
	case mdHeading:
		st := sgrHeading
		if n.level == 1 {
			st = sgrHeading1
		}
		r.wrap(b, r.inlines(n, st), first, rest)
	case mdParagraph:
		r.wrap(b, r.inlines(n, ""), first, rest)
	case mdThematicBreak:
		b.WriteString(first + styled(sgrDim, strings.Repeat("─", max(r.width-runewidth.StringWidth(first), 3))) + "\n")
	case mdQuote:
		bar := styled(sgrDim, "│ ")
		r.quoted(b, n, first+bar, rest+bar)
	case mdList:
		r.list(b, n, first, rest)
	case mdCode:
		r.code(b, n.lines, n.text, first, rest)
	case mdHTMLBlock:
		r.code(b, n.lines, "html", first, rest)
	case mdTable:
		r.table(b, n, first, rest)
	default:
		r.blocks(b, n, first, rest)
	}
}

func (r *mdRenderer) quoted(b *strings.Builder, n *mdNode, first, rest string) {
	var inner strings.Builder
	r.blocks(&inner, n, "", "")
	for i, l := range strings.Split(strings.TrimRight(inner.String(), "\n"), "\n") {
		p := rest
		if i == 0 {
			p = first
		}
		b.WriteString(p + styled(sgrQuote, l) + "\n")
	}
}

func (r *mdRenderer) list(b *strings.Builder, n *mdNode, first, rest string) {
	num := n.start
	i := 0
	for c := n.first; c != nil; c = c.next {
		marker := "• "
		if n.ordered {
			marker = fmt.Sprintf("%d. ", num)
			num++
		}
		if i > 0 && !n.tight {
			b.WriteString(strings.TrimRight(rest, " ") + "\n")
		}
		p := rest
		if i == 0 {
			p = first
		}
		pad := strings.Repeat(" ", runewidth.StringWidth(marker))
		r.blocks(b, c, p+styled(sgrDim, marker), rest+pad)
		i++
	}
}

func (r *mdRenderer) code(b *strings.Builder, lines []string, lang, first, rest string) {
	hl := highlighter(lang)
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		b.WriteString(p + "  " + hl(strings.ReplaceAll(l, "\t", "    ")) + "\n")
	}
}

// span is inline text in one style.
type span struct {
	text  string
	style string
}

// inlines flattens n's inline children into styled spans; "\n" is a line
// break.
func (r *mdRenderer) inlines(n *mdNode, base string) []span {
	var out []span
	var walk func(n *mdNode, st string)
	walk = func(n *mdNode, st string) {
		for c := n.first; c != nil; c = c.next {
			switch c.kind {
			case mdText, mdRawHTML:
				out = append(out, span{c.text, st})
			case mdBreak:
				// A line break in the answer stays one (as GitHub shows
				// comments): the model wrote it to be read that way.
				out = append(out, span{"\n", st})
			case mdCodeSpan:
				out = append(out, span{c.text, join(st, sgrCode)})
			case mdEmphasis:
				walk(c, join(st, map[int]string{1: sgrItalic, 2: sgrBold}[min(c.level, 2)]))
			case mdStrike:
				walk(c, join(st, sgrStrike))
			case mdLink:
				walk(c, join(st, sgrLink))
				if c.dest != "" && c.dest != r.plain(c) {
					out = append(out, span{" (" + c.dest + ")", join(st, sgrDim)})
				}
			case mdAutoLink:
				out = append(out, span{c.text, join(st, sgrLink)})
			case mdImage:
				out = append(out, span{"[image: " + r.plain(c) + "] (" + c.dest + ")", join(st, sgrDim)})
			case mdTaskBox:
				box := "☐ "
				if c.checked {
					box = "☑ "
				}
				out = append(out, span{box, st})
			default:
				walk(c, st)
			}
		}
	}
	walk(n, base)
	return out
}

// plain is n's text without styles.
func (r *mdRenderer) plain(n *mdNode) string {
	var b strings.Builder
	for _, s := range r.inlines(n, "") {
		b.WriteString(s.text)
	}
	return b.String()
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ";" + b
}

func styled(st, s string) string {
	if st == "" || s == "" {
		return s
	}
	return "\x1b[" + st + "m" + s + "\x1b[0m"
}

// wrap writes spans as lines within the width, breaking at blanks; a word
// wider than a line is cut.
func (r *mdRenderer) wrap(b *strings.Builder, spans []span, first, rest string) {
	avail := max(r.width-runewidth.StringWidth(rest), 20)
	var line strings.Builder
	col := 0
	prefix := first
	emit := func() {
		b.WriteString(prefix + strings.TrimRight(line.String(), " ") + "\n")
		line.Reset()
		col, prefix = 0, rest
	}
	for _, s := range spans {
		if s.text == "\n" {
			emit()
			continue
		}
		for _, w := range wordsAndBlanks(s.text) {
			ww := runewidth.StringWidth(w)
			if w == " " {
				if col > 0 && col < avail {
					line.WriteString(" ")
					col++
				}
				continue
			}
			if col > 0 && col+ww > avail {
				emit()
			}
			for ww > avail { // a word longer than the line
				head := runewidth.Truncate(w, avail, "")
				line.WriteString(styled(s.style, head))
				emit()
				w = strings.TrimPrefix(w, head)
				ww = runewidth.StringWidth(w)
			}
			line.WriteString(styled(s.style, w))
			col += ww
		}
	}
	if line.Len() > 0 || prefix == first {
		emit()
	}
}

// wordsAndBlanks splits s into words and single blanks.
func wordsAndBlanks(s string) []string {
	var out []string
	for s != "" {
		if s[0] == ' ' || s[0] == '\t' {
			out = append(out, " ")
			s = strings.TrimLeft(s, " \t")
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// table draws a table with its columns aligned, or, too wide for the
// terminal, as its rows one per line.
func (r *mdRenderer) table(b *strings.Builder, t *mdNode, first, rest string) {
	var rows [][]string
	var widths []int
	header := 0
	for row := t.first; row != nil; row = row.next {
		if row.hd {
			header = 1
		}
		var cells []string
		for c := row.first; c != nil; c = c.next {
			var cb strings.Builder
			for _, s := range r.inlines(c, "") {
				cb.WriteString(styled(s.style, s.text))
			}
			cell := cb.String()
			if i := len(cells); i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[len(cells)] = max(widths[len(cells)], visibleWidth(cell))
			cells = append(cells, cell)
		}
		rows = append(rows, cells)
	}
	total := runewidth.StringWidth(rest) + 3*len(widths)
	for _, w := range widths {
		total += w
	}
	sep := styled(sgrDim, " │ ")
	for i, cells := range rows {
		p := rest
		if i == 0 {
			p = first
		}
		if total > r.width {
			b.WriteString(p + strings.Join(cells, sep) + "\n")
			continue
		}
		var line []string
		for j, c := range cells {
			pad := strings.Repeat(" ", widths[j]-visibleWidth(c))
			if j < len(t.align) && t.align[j] == alignRight {
				line = append(line, pad+c)
			} else {
				line = append(line, c+pad)
			}
		}
		st := ""
		if i < header {
			st = sgrBold
		}
		b.WriteString(p + styled(st, strings.TrimRight(strings.Join(line, sep), " ")) + "\n")
		if i+1 == header {
			var rule []string
			for _, w := range widths {
				rule = append(rule, strings.Repeat("─", w))
			}
			b.WriteString(rest + styled(sgrDim, strings.Join(rule, "─┼─")) + "\n")
		}
	}
}

// visibleWidth is the width of s on the screen, its SGR sequences aside.
func visibleWidth(s string) int {
	w := 0
	for s != "" {
		if strings.HasPrefix(s, "\x1b[") {
			if i := strings.IndexByte(s, 'm'); i >= 0 {
				s = s[i+1:]
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s)
		w += runewidth.RuneWidth(r)
		s = s[size:]
	}
	return w
}
