package web

import (
	"net/url"
	"strings"

	"tai/internal/lazyre"
)

// textWriter assembles the text of an HTML page: it owes line breaks and
// spaces until the next word, so markup never leaves runs of blank lines.
type textWriter struct {
	base  *url.URL
	b     strings.Builder
	nl    int  // line breaks owed before the next text (at most 2)
	space bool // a space is owed before the next text
	pre   int  // depth inside <pre>
	lists int  // depth inside <ul>/<ol>
	cells int  // cells written in the current table row

	linkHref string // absolute URL of the open <a>, or ""
	linkText bool   // its "[" is written: it has text
}

func (w *textWriter) owe(n int) {
	w.nl = max(w.nl, n)
}

// text writes character data.
func (w *textWriter) text(s string) {
	if w.pre > 0 {
		w.flush()
		w.openLink()
		w.b.WriteString(s)
		return
	}
	if s != "" && isSpace(s[0]) {
		w.space = true
	}
	words := strings.Fields(s)
	for i, word := range words {
		if i > 0 {
			w.space = true
		}
		w.flush()
		w.openLink()
		w.b.WriteString(word)
	}
	if len(words) > 0 && isSpace(s[len(s)-1]) {
		w.space = true
	}
}

// flush writes the owed line breaks or space before new text.
func (w *textWriter) flush() {
	switch {
	case w.b.Len() == 0:
	case w.nl > 0:
		w.b.WriteString(strings.Repeat("\n", w.nl))
	case w.space:
		w.b.WriteByte(' ')
	}
	w.nl, w.space = 0, false
}

// tag applies one start or end tag's effect on layout.
func (w *textWriter) tag(t tag) {
	switch n := t.name; {
	case len(n) == 2 && n[0] == 'h' && n[1] >= '1' && n[1] <= '6':
		w.owe(2)
		if !t.end {
			w.flush()
			w.b.WriteString(strings.Repeat("#", int(n[1]-'0')) + " ")
		}
	case n == "a":
		w.link(t)
	case n == "li" && !t.end:
		w.owe(1)
		w.flush()
		w.b.WriteString(strings.Repeat("  ", max(0, w.lists-1)) + "- ")
	case (n == "ul" || n == "ol") && !t.end:
		w.owe(listGap(w.lists))
		w.lists++
	case n == "ul" || n == "ol":
		w.lists = max(0, w.lists-1)
		w.owe(listGap(w.lists))
	case n == "pre" && !t.end:
		w.pre++
		w.owe(2)
	case n == "pre":
		w.pre = max(0, w.pre-1)
		w.owe(2)
	case n == "tr":
		w.cells = 0
		w.owe(1)
	case (n == "td" || n == "th") && !t.end:
		if w.cells > 0 {
			w.flush()
			w.b.WriteString(" | ")
		}
		w.cells++
	case paragraphs[n]:
		w.owe(2)
	case blocks[n]:
		w.owe(1)
	}
}

// listGap is the break around a list at depth d: a blank line around a
// top-level list, a line break around a nested one.
func listGap(d int) int {
	if d == 0 {
		return 2
	}
	return 1
}

// link handles <a> and </a>: a link with text and a useful href becomes
// [text](url); its "[" waits for the first word, so links without text
// (icons) leave nothing.
func (w *textWriter) link(t tag) {
	if !t.end {
		w.linkHref, w.linkText = w.resolve(t.href), false
		return
	}
	if w.linkText {
		w.b.WriteString("](" + w.linkHref + ")")
	}
	w.linkHref, w.linkText = "", false
}

// openLink writes the "[" of an open link before its first text.
func (w *textWriter) openLink() {
	if w.linkHref != "" && !w.linkText {
		w.b.WriteByte('[')
		w.linkText = true
	}
}

// resolve makes href absolute; in-page anchors and scripts give "".
func (w *textWriter) resolve(href string) string {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") || strings.HasPrefix(strings.ToLower(href), "javascript:") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if w.base != nil {
		u = w.base.ResolveReference(u)
	}
	return u.String()
}

var trailingSpace = lazyre.New(`[ \t]+\n`)

// String is the text, trimmed.
func (w *textWriter) String() string {
	return strings.TrimSpace(trailingSpace.ReplaceAllString(w.b.String(), "\n"))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
