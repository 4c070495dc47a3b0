package repl

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
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

// md parses CommonMark with GitHub's tables, strikethrough and task lists;
// built on first use, so a tai that renders nothing does not pay for it.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
})

// renderMarkdown renders src, cleaned text of one or more blocks, for a
// terminal width columns wide.
func renderMarkdown(src string, width int) string {
	if width <= 0 {
		width = 80
	}
	r := &mdRenderer{src: []byte(src), width: min(width, 120)}
	doc := md().Parser().Parse(text.NewReader(r.src))
	var b strings.Builder
	r.blocks(&b, doc, "", "")
	return b.String()
}

type mdRenderer struct {
	src   []byte
	width int
}

// blocks renders the children of n, each line starting with first (the
// first line) or rest (the others) as prefixes.
func (r *mdRenderer) blocks(b *strings.Builder, n ast.Node, first, rest string) {
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
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
func isTightItemBlock(n ast.Node) bool {
	if l, ok := n.Parent().(*ast.ListItem); ok {
		if list, ok := l.Parent().(*ast.List); ok && list.IsTight {
			return true
		}
	}
	_, item := n.(*ast.ListItem)
	return item
}

func (r *mdRenderer) block(b *strings.Builder, n ast.Node, first, rest string) {
	switch n := n.(type) {
	case *ast.Heading:
		st := sgrHeading
		if n.Level == 1 {
			st = sgrHeading1
		}
		r.wrap(b, r.inlines(n, st), first, rest)
	case *ast.Paragraph, *ast.TextBlock:
		r.wrap(b, r.inlines(n, ""), first, rest)
	case *ast.ThematicBreak:
		b.WriteString(first + styled(sgrDim, strings.Repeat("─", max(r.width-runewidth.StringWidth(first), 3))) + "\n")
	case *ast.Blockquote:
		bar := styled(sgrDim, "│ ")
		r.quoted(b, n, first+bar, rest+bar)
	case *ast.List:
		r.list(b, n, first, rest)
	case *ast.FencedCodeBlock:
		r.code(b, n.Lines(), string(n.Language(r.src)), first, rest)
	case *ast.CodeBlock:
		r.code(b, n.Lines(), "", first, rest)
	case *ast.HTMLBlock:
		r.code(b, n.Lines(), "html", first, rest)
	case *east.Table:
		r.table(b, n, first, rest)
	default:
		r.blocks(b, n, first, rest)
	}
}

func (r *mdRenderer) quoted(b *strings.Builder, n ast.Node, first, rest string) {
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

func (r *mdRenderer) list(b *strings.Builder, n *ast.List, first, rest string) {
	num := n.Start
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = fmt.Sprintf("%d. ", num)
			num++
		}
		if i > 0 && !n.IsTight {
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

func (r *mdRenderer) code(b *strings.Builder, lines *text.Segments, lang, first, rest string) {
	hl := highlighter(lang)
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		l := strings.TrimRight(string(seg.Value(r.src)), "\n")
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
func (r *mdRenderer) inlines(n ast.Node, base string) []span {
	var out []span
	var walk func(n ast.Node, st string)
	walk = func(n ast.Node, st string) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				out = append(out, span{string(c.Segment.Value(r.src)), st})
				// A line break in the answer stays one (as GitHub shows
				// comments): the model wrote it to be read that way.
				if c.HardLineBreak() || c.SoftLineBreak() {
					out = append(out, span{"\n", st})
				}
			case *ast.String:
				out = append(out, span{string(c.Value), st})
			case *ast.CodeSpan:
				out = append(out, span{r.plain(c), join(st, sgrCode)})
			case *ast.Emphasis:
				walk(c, join(st, map[int]string{1: sgrItalic, 2: sgrBold}[min(c.Level, 2)]))
			case *east.Strikethrough:
				walk(c, join(st, sgrStrike))
			case *ast.Link:
				walk(c, join(st, sgrLink))
				if dest := string(c.Destination); dest != "" && dest != r.plain(c) {
					out = append(out, span{" (" + dest + ")", join(st, sgrDim)})
				}
			case *ast.AutoLink:
				out = append(out, span{string(c.URL(r.src)), join(st, sgrLink)})
			case *ast.Image:
				out = append(out, span{"[image: " + r.plain(c) + "] (" + string(c.Destination) + ")", join(st, sgrDim)})
			case *ast.RawHTML:
				for i := 0; i < c.Segments.Len(); i++ {
					seg := c.Segments.At(i)
					out = append(out, span{string(seg.Value(r.src)), st})
				}
			case *east.TaskCheckBox:
				box := "☐ "
				if c.IsChecked {
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
func (r *mdRenderer) plain(n ast.Node) string {
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
func (r *mdRenderer) table(b *strings.Builder, t *east.Table, first, rest string) {
	var rows [][]string
	var widths []int
	header := 0
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			header = 1
		}
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
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
			if j < len(t.Alignments) && t.Alignments[j] == east.AlignRight {
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
