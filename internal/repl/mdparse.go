package repl

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file parses the Markdown a model writes into the tree mdrender.go
// draws: CommonMark's blocks and inlines with GitHub's tables,
// strikethrough and task lists. It is tai's own so that starting tai costs
// nothing for it: goldmark with its GitHub extensions, linked in, spends
// 4.4 ms initialising its packages on every start of tai, whatever the
// command (median of 41 starts, interop/cmd/initcost, 2026-12-04), about
// a third of `tai --version` on the same machine; see docs/benchmarks.md,
// "What a library costs at start-up". It covers what a terminal shows:
// reference-style links stay as written, and entities and inline HTML
// are shown as written.

// mdKind is the kind of a parsed Markdown node.
type mdKind uint8

const (
	mdDocument mdKind = iota
	mdParagraph
	mdHeading // level
	mdThematicBreak
	mdQuote
	mdList // ordered, start, tight
	mdItem
	mdCode      // fenced or indented; lines, the fence's language in text
	mdHTMLBlock // lines
	mdTable     // align
	mdTableRow  // header
	mdTableCell
	mdText     // text
	mdBreak    // a line break
	mdCodeSpan // text
	mdEmphasis // level 1 (emphasis) or 2 (strong)
	mdStrike
	mdLink     // dest
	mdImage    // dest
	mdAutoLink // text
	mdRawHTML  // text
	mdTaskBox  // checked
)

// mdAlign is a table column's alignment.
type mdAlign uint8

const (
	alignNone mdAlign = iota
	alignLeft
	alignCenter
	alignRight
)

// mdNode is one node of the tree; its children are a linked list.
type mdNode struct {
	kind                        mdKind
	parent, first, last         *mdNode
	prev, next                  *mdNode
	text, dest                  string
	lines                       []string
	level, start                int
	ordered, tight, checked, hd bool
	align                       []mdAlign
}

func (n *mdNode) add(c *mdNode) *mdNode {
	c.parent, c.prev, c.next = n, n.last, nil
	if n.last != nil {
		n.last.next = c
	} else {
		n.first = c
	}
	n.last = c
	return c
}

func (n *mdNode) unlink() {
	if n.prev != nil {
		n.prev.next = n.next
	} else if n.parent != nil {
		n.parent.first = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else if n.parent != nil {
		n.parent.last = n.prev
	}
	n.parent, n.prev, n.next = nil, nil, nil
}

func (n *mdNode) insertAfter(c *mdNode) {
	c.parent, c.prev, c.next = n.parent, n, n.next
	if n.next != nil {
		n.next.prev = c
	} else if n.parent != nil {
		n.parent.last = c
	}
	n.next = c
}

// parseMarkdown parses src into a document.
func parseMarkdown(src string) *mdNode {
	doc := &mdNode{kind: mdDocument}
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	parseBlocks(doc, lines)
	return doc
}

// parseBlocks adds the blocks of lines to parent and reports whether a
// blank line separates two of them (what makes a list item loose).
func parseBlocks(parent *mdNode, lines []string) (gap bool) {
	for i := range lines {
		lines[i] = detab(lines[i])
	}
	blank := false
	for i := 0; i < len(lines); {
		l := lines[i]
		if isBlank(l) {
			blank = true
			i++
			continue
		}
		if blank && parent.first != nil {
			gap = true
		}
		blank = false
		i = parseBlock(parent, lines, i)
	}
	return gap
}

// parseBlock adds the block starting at lines[i] and returns the index of
// the line after it.
func parseBlock(parent *mdNode, lines []string, i int) int {
	l := lines[i]
	ind := indentOf(l)
	t := l[ind:]
	switch {
	case ind >= 4:
		return indentedCode(parent, lines, i)
	case openFence(l) != "":
		return fencedCode(parent, lines, i)
	case isHeading(l):
		h := parent.add(&mdNode{kind: mdHeading})
		h.level = len(t) - len(strings.TrimLeft(t, "#"))
		parseInlines(h, atxText(t[h.level:]))
		return i + 1
	case isThematicBreak(l):
		parent.add(&mdNode{kind: mdThematicBreak})
		return i + 1
	case t[0] == '>':
		return quote(parent, lines, i)
	case htmlBlockStart(t, false) != "":
		return htmlBlock(parent, lines, i)
	}
	if _, ok := listMarker(l); ok {
		return list(parent, lines, i)
	}
	return paragraph(parent, lines, i)
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

// indentOf counts l's leading blanks (tabs are expanded by detab).
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// detab expands to spaces, at stops of four, the tabs of l's indentation
// and of the list and quote markers that open it ("-\tx" is an item).
func detab(l string) string {
	end := 0
	for end < len(l) && strings.IndexByte(" \t-*+>.)0123456789", l[end]) >= 0 {
		end++
	}
	if strings.IndexByte(l[:end], '\t') < 0 {
		return l
	}
	var b strings.Builder
	for i := 0; i < end; i++ {
		if l[i] == '\t' {
			b.WriteString(strings.Repeat(" ", 4-b.Len()%4))
		} else {
			b.WriteByte(l[i])
		}
	}
	return b.String() + l[end:]
}

// atxText is a heading's text without its closing #s.
func atxText(s string) string {
	s = strings.TrimSpace(s)
	if t := strings.TrimRight(s, "#"); t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t") {
		s = strings.TrimSpace(t)
	}
	return s
}

func isThematicBreak(l string) bool {
	t := strings.TrimSpace(l)
	if indentOf(l) > 3 || t == "" || !strings.ContainsRune("-*_", rune(t[0])) {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case t[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// interrupts reports whether l starts a block that ends a paragraph.
func interrupts(l string) bool {
	ind := indentOf(l)
	if isBlank(l) || ind > 3 {
		return isBlank(l)
	}
	t := l[ind:]
	if isHeading(l) || openFence(l) != "" || isThematicBreak(l) || t[0] == '>' || htmlBlockStart(t, true) != "" {
		return true
	}
	m, ok := listMarker(l)
	return ok && !m.empty && (!m.ordered || m.start == 1)
}

func indentedCode(parent *mdNode, lines []string, i int) int {
	c := parent.add(&mdNode{kind: mdCode})
	end := i
	for j := i; j < len(lines); j++ {
		l := lines[j]
		if isBlank(l) {
			c.lines = append(c.lines, strings.TrimPrefix(l, "    "))
			continue
		}
		if indentOf(l) < 4 {
			break
		}
		c.lines = append(c.lines, l[4:])
		end = j + 1
	}
	c.lines = c.lines[:end-i]
	return end
}

func fencedCode(parent *mdNode, lines []string, i int) int {
	l := lines[i]
	ind := indentOf(l)
	fence := openFence(l)
	info := strings.Fields(l[ind+len(fence):])
	c := parent.add(&mdNode{kind: mdCode})
	if len(info) > 0 {
		c.text = info[0]
	}
	j := i + 1
	for ; j < len(lines); j++ {
		if indentOf(lines[j]) <= 3 && closesFence(lines[j], fence) {
			return j + 1
		}
		c.lines = append(c.lines, lines[j][min(ind, indentOf(lines[j])):])
	}
	return j
}

func quote(parent *mdNode, lines []string, i int) int {
	var inner []string
	j := i
	for ; j < len(lines); j++ {
		l := lines[j]
		if ind := indentOf(l); ind <= 3 && strings.HasPrefix(l[ind:], ">") {
			c := l[ind+1:]
			if strings.HasPrefix(c, " ") {
				c = c[1:]
			} else if strings.HasPrefix(c, "\t") {
				c = "  " + c[1:]
			}
			inner = append(inner, c)
			continue
		}
		if !lazy(inner, l) {
			break
		}
		inner = append(inner, l)
	}
	parseBlocks(parent.add(&mdNode{kind: mdQuote}), inner)
	return j
}

// lazy reports whether l, not marked as part of the container whose lines
// so far are prev, continues the paragraph those lines end in.
func lazy(prev []string, l string) bool {
	if len(prev) == 0 || isBlank(l) || interrupts(l) {
		return false
	}
	if _, ok := listMarker(l); ok {
		return false
	}
	last := detab(prev[len(prev)-1])
	if isBlank(last) || indentOf(last) >= 4 || isHeading(last) || isThematicBreak(last) {
		return false
	}
	fence := ""
	for _, p := range prev {
		p = detab(p)
		if fence == "" {
			fence = openFence(strings.TrimLeft(p, " >-*+0123456789.)"))
		} else if closesFence(strings.TrimLeft(p, " >"), fence) {
			fence = ""
		}
	}
	return fence == ""
}

// marker is a list item's marker.
type marker struct {
	ordered bool
	delim   byte // the bullet, or the ordered marker's "." or ")"
	start   int
	indent  int // the column the item's content starts at
	empty   bool
}

func listMarker(l string) (m marker, ok bool) {
	ind := indentOf(l)
	if ind > 3 || ind == len(l) {
		return m, false
	}
	t := l[ind:]
	w := 0
	switch {
	case t[0] == '-' || t[0] == '*' || t[0] == '+':
		m.delim, w = t[0], 1
	default:
		for w < len(t) && w < 9 && t[w] >= '0' && t[w] <= '9' {
			m.start = m.start*10 + int(t[w]-'0')
			w++
		}
		if w == 0 || w == len(t) || (t[w] != '.' && t[w] != ')') {
			return m, false
		}
		m.ordered, m.delim = true, t[w]
		w++
	}
	rest := t[w:]
	if rest != "" && rest[0] != ' ' {
		return m, false
	}
	sp := len(rest) - len(strings.TrimLeft(rest, " "))
	m.empty = isBlank(rest)
	if m.empty || sp > 4 {
		sp = 1
	}
	m.indent = ind + w + sp
	return m, true
}

func list(parent *mdNode, lines []string, i int) int {
	first, _ := listMarker(lines[i])
	ls := parent.add(&mdNode{kind: mdList, ordered: first.ordered, start: first.start, tight: true})
	for i < len(lines) {
		m, ok := listMarker(lines[i])
		if !ok || m.ordered != first.ordered || m.delim != first.delim || isThematicBreak(lines[i]) {
			break
		}
		if i > 0 && ls.first != nil && isBlank(lines[i-1]) {
			ls.tight = false
		}
		l := lines[i]
		content := []string{""}
		if len(l) > m.indent {
			content[0] = l[m.indent:]
		}
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			switch {
			case isBlank(l):
				content = append(content, "")
			case indentOf(l) >= m.indent:
				content = append(content, l[m.indent:])
			case lazy(content, l):
				content = append(content, l)
			default:
				goto done
			}
		}
	done:
		for len(content) > 1 && isBlank(content[len(content)-1]) {
			content = content[:len(content)-1]
			j--
		}
		item := ls.add(&mdNode{kind: mdItem})
		box := taskBox(content[0])
		if box != "" {
			content[0] = strings.TrimLeft(content[0][3:], " ")
		}
		if parseBlocks(item, content) {
			ls.tight = false
		}
		if box != "" && item.first != nil && item.first.kind == mdParagraph {
			p := item.first
			tb := &mdNode{kind: mdTaskBox, checked: box != "[ ]"}
			if p.first != nil {
				p.first.prev, tb.next = tb, p.first
				tb.parent, p.first = p, tb
			} else {
				p.add(tb)
			}
		}
		i = j
		for i < len(lines) && isBlank(lines[i]) {
			i++
		}
		if i < len(lines) && i > j {
			if m, ok := listMarker(lines[i]); !ok || m.ordered != first.ordered || m.delim != first.delim {
				return j
			}
		}
	}
	return i
}

// taskBox is the "[ ]", "[x]" or "[X]" a task list item starts with, or "".
func taskBox(l string) string {
	if len(l) >= 4 && l[0] == '[' && l[2] == ']' && (l[3] == ' ' || l[3] == '\t') && strings.ContainsRune(" xX", rune(l[1])) {
		return l[:3]
	}
	return ""
}

// htmlBlockTags are the tags that start an HTML block ending at a blank
// line (CommonMark's sixth kind).
var htmlBlockTags = strings.Fields(`address article aside base basefont blockquote body caption center col
	colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3
	h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p
	param search section summary table tbody td tfoot th thead title tr track ul`)

// htmlBlockStart returns what ends the HTML block t starts ("" for a
// blank line, "-" for none); inPara: only the kinds that may interrupt a
// paragraph.
func htmlBlockStart(t string, inPara bool) string {
	if !strings.HasPrefix(t, "<") {
		return ""
	}
	lt := strings.ToLower(t)
	for _, tag := range []string{"script", "pre", "style", "textarea"} {
		if strings.HasPrefix(lt[1:], tag) && (len(lt) == len(tag)+1 || strings.ContainsRune(" \t>", rune(lt[len(tag)+1]))) {
			return "</" + tag + ">"
		}
	}
	switch {
	case strings.HasPrefix(t, "<!--"):
		return "-->"
	case strings.HasPrefix(t, "<?"):
		return "?>"
	case strings.HasPrefix(t, "<![CDATA["):
		return "]]>"
	case len(t) > 2 && t[1] == '!' && isASCIILetter(t[2]):
		return ">"
	}
	name := strings.TrimPrefix(lt[1:], "/")
	n := 0
	for n < len(name) && (isASCIILetter(name[n]) || (n > 0 && (name[n] >= '0' && name[n] <= '9' || name[n] == '-'))) {
		n++
	}
	if n == 0 {
		return ""
	}
	after := name[n:]
	for _, tag := range htmlBlockTags {
		if name[:n] == tag && (after == "" || strings.HasPrefix(after, ">") || strings.HasPrefix(after, "/>") || after[0] == ' ' || after[0] == '\t') {
			return "\n"
		}
	}
	if !inPara && strings.HasSuffix(strings.TrimSpace(t), ">") && !strings.Contains(t[1:], "<") && strings.ContainsRune(" \t/>", rune(after[0])) {
		return "\n"
	}
	return ""
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func htmlBlock(parent *mdNode, lines []string, i int) int {
	end := htmlBlockStart(lines[i][indentOf(lines[i]):], false)
	h := parent.add(&mdNode{kind: mdHTMLBlock})
	j := i
	for ; j < len(lines); j++ {
		if end == "\n" && isBlank(lines[j]) {
			break
		}
		h.lines = append(h.lines, lines[j])
		if end != "\n" && strings.Contains(strings.ToLower(lines[j]), end) && (j > i || strings.Index(strings.ToLower(lines[j]), end) > 0) {
			return j + 1
		}
	}
	return j
}

func paragraph(parent *mdNode, lines []string, i int) int {
	if i+1 < len(lines) && tableStart(lines[i], lines[i+1]) {
		return table(parent, lines, i)
	}
	j := i + 1
	for ; j < len(lines); j++ {
		l := lines[j]
		if u := setextLevel(l); u > 0 {
			h := parent.add(&mdNode{kind: mdHeading, level: u})
			parseInlines(h, paragraphText(lines[i:j]))
			return j + 1
		}
		if interrupts(l) {
			break
		}
		if j+1 < len(lines) && tableStart(l, lines[j+1]) {
			break
		}
	}
	parseInlines(parent.add(&mdNode{kind: mdParagraph}), paragraphText(lines[i:j]))
	return j
}

// setextLevel is 1 or 2 for a line underlining a heading, else 0.
func setextLevel(l string) int {
	t := strings.TrimSpace(l)
	if indentOf(l) > 3 || t == "" || strings.Trim(t, t[:1]) != "" {
		return 0
	}
	return map[byte]int{'=': 1, '-': 2}[t[0]]
}

func paragraphText(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimLeft(l, " "))
	}
	return strings.TrimRight(b.String(), " \t")
}

// tableStart reports whether head and delim are a table's header and
// delimiter rows.
func tableStart(head, delim string) bool {
	if indentOf(head) > 3 || indentOf(delim) > 3 || !strings.Contains(delim, "|") || !strings.Contains(head, "|") && !strings.Contains(delim, "|") {
		return false
	}
	cells := splitRow(delim)
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if strings.Trim(strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":"), "-") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return len(cells) == len(splitRow(head))
}

// splitRow splits a table row into its cells at unescaped pipes.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	if strings.HasSuffix(l, "|") && !strings.HasSuffix(l, `\|`) {
		l = l[:len(l)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, l[start:i])
			start = i + 1
		}
	}
	return append(cells, l[start:])
}

func table(parent *mdNode, lines []string, i int) int {
	t := parent.add(&mdNode{kind: mdTable})
	for _, c := range splitRow(lines[i+1]) {
		c = strings.TrimSpace(c)
		left, right := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
		t.align = append(t.align, map[[2]bool]mdAlign{{true, false}: alignLeft, {true, true}: alignCenter, {false, true}: alignRight}[[2]bool{left, right}])
	}
	row := func(l string, header bool) {
		r := t.add(&mdNode{kind: mdTableRow, hd: header})
		cells := splitRow(l)
		for k := range t.align {
			c := r.add(&mdNode{kind: mdTableCell})
			if k < len(cells) {
				parseInlines(c, strings.ReplaceAll(strings.TrimSpace(cells[k]), `\|`, "|"))
			}
		}
	}
	row(lines[i], true)
	j := i + 2
	for ; j < len(lines) && !interrupts(lines[j]); j++ {
		row(lines[j], false)
	}
	return j
}

// delim is an entry of the inline parser's stack: a run of emphasis or
// strikethrough characters, or an opening bracket.
type delim struct {
	node              *mdNode // the text node holding the run
	ch                byte    // '*', '_', '~', '[' or '!' (an image's "![")
	n, orig           int
	canOpen, canClose bool
	active            bool // a bracket that may still open a link
	prev, next        *delim
}

type inlineParser struct {
	parent *mdNode
	s      string
	buf    strings.Builder
	top    *delim
}

// parseInlines adds the inlines of s to parent.
func parseInlines(parent *mdNode, s string) {
	p := &inlineParser{parent: parent, s: s}
	for i := 0; i < len(s); {
		i = p.step(i)
	}
	p.flush()
	p.emphasis(nil)
	joinText(parent)
}

// joinText merges adjacent text nodes under n (left apart by delimiters
// that matched nothing), so a line wraps between words, not inside one.
func joinText(n *mdNode) {
	for c := n.first; c != nil; c = c.next {
		for c.kind == mdText && c.next != nil && c.next.kind == mdText {
			c.text += c.next.text
			c.next.unlink()
		}
		if c.first != nil {
			joinText(c)
		}
	}
}

func (p *inlineParser) flush() {
	if p.buf.Len() > 0 {
		p.parent.add(&mdNode{kind: mdText, text: p.buf.String()})
		p.buf.Reset()
	}
}

func (p *inlineParser) push(d *delim) {
	d.prev = p.top
	if p.top != nil {
		p.top.next = d
	}
	p.top = d
}

func (p *inlineParser) drop(d *delim) {
	if d.prev != nil {
		d.prev.next = d.next
	}
	if d.next != nil {
		d.next.prev = d.prev
	} else {
		p.top = d.prev
	}
}

// step parses what starts at s[i] and returns where the next thing starts.
func (p *inlineParser) step(i int) int {
	s := p.s
	switch c := s[i]; c {
	case '\\':
		if i+1 < len(s) && s[i+1] == '\n' {
			p.lineBreak()
			return skipBlanks(s, i+2)
		}
		if i+1 < len(s) && isASCIIPunct(s[i+1]) {
			p.buf.WriteByte(s[i+1])
			return i + 2
		}
	case '\n':
		p.lineBreak()
		return skipBlanks(s, i+1)
	case '`':
		n := runLen(s, i, '`')
		for j := i + n; j < len(s); {
			k := strings.IndexByte(s[j:], '`')
			if k < 0 {
				break
			}
			j += k
			m := runLen(s, j, '`')
			if m == n {
				p.flush()
				code := strings.ReplaceAll(s[i+n:j], "\n", " ")
				if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.TrimSpace(code) != "" {
					code = code[1 : len(code)-1]
				}
				p.parent.add(&mdNode{kind: mdCodeSpan, text: code})
				return j + m
			}
			j += m
		}
		p.buf.WriteString(s[i : i+n])
		return i + n
	case '*', '_', '~':
		n := runLen(s, i, c)
		if c == '~' && n > 2 {
			p.buf.WriteString(s[i : i+n])
			return i + n
		}
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+n:])
		if i == 0 {
			before = ' '
		}
		if i+n == len(s) {
			after = ' '
		}
		left := !unicode.IsSpace(after) && (!isPunct(after) || unicode.IsSpace(before) || isPunct(before))
		right := !unicode.IsSpace(before) && (!isPunct(before) || unicode.IsSpace(after) || isPunct(after))
		d := &delim{ch: c, n: n, orig: n, canOpen: left, canClose: right}
		if c == '_' {
			d.canOpen = left && (!right || isPunct(before))
			d.canClose = right && (!left || isPunct(after))
		}
		p.flush()
		d.node = p.parent.add(&mdNode{kind: mdText, text: s[i : i+n]})
		p.push(d)
		return i + n
	case '!', '[':
		if c == '!' && !strings.HasPrefix(s[i:], "![") {
			break
		}
		w := map[byte]int{'!': 2, '[': 1}[c]
		p.flush()
		p.push(&delim{ch: c, node: p.parent.add(&mdNode{kind: mdText, text: s[i : i+w]}), active: true})
		return i + w
	case ']':
		return p.closeBracket(i)
	case '<':
		if j, url := autolink(s, i); j > 0 {
			p.flush()
			p.parent.add(&mdNode{kind: mdAutoLink, text: url})
			return j
		}
		if j := rawHTML(s, i); j > 0 {
			p.flush()
			p.parent.add(&mdNode{kind: mdRawHTML, text: s[i:j]})
			return j
		}
	}
	p.buf.WriteByte(s[i])
	return i + 1
}

// lineBreak ends a line of the paragraph; its trailing blanks go.
func (p *inlineParser) lineBreak() {
	t := strings.TrimRight(p.buf.String(), " \t")
	p.buf.Reset()
	p.buf.WriteString(t)
	p.flush()
	p.parent.add(&mdNode{kind: mdBreak})
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isASCIIPunct(c byte) bool {
	return c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

func isPunct(r rune) bool {
	if r < 0x80 {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// closeBracket handles the "]" at s[i]: a link or image when an opening
// bracket is open and an inline destination follows.
func (p *inlineParser) closeBracket(i int) int {
	var open *delim
	for d := p.top; d != nil; d = d.prev {
		if d.ch == '[' || d.ch == '!' {
			open = d
			break
		}
	}
	if open == nil {
		p.buf.WriteByte(']')
		return i + 1
	}
	j, dest, ok := linkDest(p.s, i+1)
	if !open.active || !ok {
		p.drop(open)
		p.buf.WriteByte(']')
		return i + 1
	}
	p.flush()
	kind := mdLink
	if open.ch == '!' {
		kind = mdImage
	}
	link := &mdNode{kind: kind, dest: dest}
	for n := open.node.next; n != nil; {
		next := n.next
		n.unlink()
		link.add(n)
		n = next
	}
	open.node.insertAfter(link)
	open.node.unlink()
	inner := &inlineParser{parent: link, top: p.top}
	inner.emphasis(open)
	p.top = inner.top
	p.drop(open)
	if kind == mdLink {
		for d := open.prev; d != nil; d = d.prev {
			if d.ch == '[' {
				d.active = false
			}
		}
	}
	return j
}

// linkDest parses an inline link's "(destination "title")" at s[i].
func linkDest(s string, i int) (end int, dest string, ok bool) {
	if i >= len(s) || s[i] != '(' {
		return 0, "", false
	}
	i = skipSpace(s, i+1)
	var b strings.Builder
	if i < len(s) && s[i] == '<' {
		j := strings.IndexAny(s[i+1:], ">\n")
		if j < 0 || s[i+1+j] != '>' {
			return 0, "", false
		}
		b.WriteString(s[i+1 : i+1+j])
		i += j + 2
	} else {
		depth := 0
		for ; i < len(s); i++ {
			c := s[i]
			if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
				b.WriteByte(s[i+1])
				i++
				continue
			}
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth == 0 {
					break
				}
				depth--
			} else if c <= ' ' {
				break
			}
			b.WriteByte(c)
		}
	}
	i = skipSpace(s, i)
	if i < len(s) && strings.IndexByte(`"'(`, s[i]) >= 0 {
		closing := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[s[i]]
		j := strings.IndexByte(s[i+1:], closing)
		if j < 0 {
			return 0, "", false
		}
		i = skipSpace(s, i+j+2)
	}
	if i >= len(s) || s[i] != ')' {
		return 0, "", false
	}
	return i + 1, b.String(), true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	return i
}

// autolink parses "<scheme:...>" or "<address@host>" at s[i].
func autolink(s string, i int) (end int, url string) {
	j := strings.IndexByte(s[i:], '>')
	if j < 0 {
		return 0, ""
	}
	u := s[i+1 : i+j]
	if u == "" || strings.ContainsAny(u, " \t\n<") {
		return 0, ""
	}
	if k := strings.IndexByte(u, ':'); k >= 2 && k <= 32 && isASCIILetter(u[0]) && strings.Trim(strings.ToLower(u[:k]), "abcdefghijklmnopqrstuvwxyz0123456789+.-") == "" {
		return i + j + 1, u
	}
	if at := strings.IndexByte(u, '@'); at > 0 && strings.Contains(u[at:], ".") && !strings.ContainsAny(u, "\\,;:()[]") {
		return i + j + 1, u
	}
	return 0, ""
}

// rawHTML parses an inline HTML tag or comment at s[i].
func rawHTML(s string, i int) int {
	t := s[i:]
	switch {
	case strings.HasPrefix(t, "<!--"):
		if j := strings.Index(t[4:], "-->"); j >= 0 {
			return i + 4 + j + 3
		}
		return 0
	case strings.HasPrefix(t, "<?"):
		if j := strings.Index(t[2:], "?>"); j >= 0 {
			return i + 2 + j + 2
		}
		return 0
	}
	k := 1
	if strings.HasPrefix(t, "</") {
		k = 2
	}
	if k >= len(t) || !isASCIILetter(t[k]) {
		return 0
	}
	j := strings.IndexByte(t, '>')
	if j < 0 || strings.ContainsRune(t[1:j], '<') {
		return 0
	}
	return i + j + 1
}

// emphasis pairs the emphasis and strikethrough runs above bottom on the
// stack (CommonMark's "process emphasis"), then drops them from it.
func (p *inlineParser) emphasis(bottom *delim) {
	first := p.top
	for first != nil && first.prev != bottom {
		first = first.prev
	}
	if p.top == bottom {
		return
	}
	openersBottom := map[[3]int]*delim{}
	for closer := first; closer != nil; {
		if closer.ch == '[' || closer.ch == '!' || !closer.canClose {
			closer = closer.next
			continue
		}
		key := [3]int{int(closer.ch), b2i(closer.canOpen), closer.orig % 3}
		var opener *delim
		for d := closer.prev; d != bottom && d != nil && d != openersBottom[key]; d = d.prev {
			if d.ch != closer.ch || !d.canOpen {
				continue
			}
			if d.ch == '~' {
				if d.n == closer.n {
					opener = d
					break
				}
				continue
			}
			if (d.canClose || closer.canOpen) && (d.orig+closer.orig)%3 == 0 && (d.orig%3 != 0 || closer.orig%3 != 0) {
				continue
			}
			opener = d
			break
		}
		if opener == nil {
			openersBottom[key] = closer.prev
			next := closer.next
			if !closer.canOpen {
				p.drop(closer)
			}
			closer = next
			continue
		}
		use := 1
		if closer.n >= 2 && opener.n >= 2 {
			use = 2
		}
		node := &mdNode{kind: mdEmphasis, level: use}
		if closer.ch == '~' {
			node = &mdNode{kind: mdStrike}
			use = closer.n
		}
		for n := opener.node.next; n != closer.node; {
			next := n.next
			n.unlink()
			node.add(n)
			n = next
		}
		opener.node.insertAfter(node)
		for d := opener.next; d != closer; d = d.next {
			p.drop(d)
		}
		opener.n -= use
		opener.node.text = opener.node.text[:opener.n]
		closer.n -= use
		closer.node.text = closer.node.text[:closer.n]
		if opener.n == 0 {
			opener.node.unlink()
			p.drop(opener)
		}
		if closer.n == 0 {
			next := closer.next
			closer.node.unlink()
			p.drop(closer)
			closer = next
		}
	}
	for p.top != bottom && p.top != nil {
		p.drop(p.top)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
