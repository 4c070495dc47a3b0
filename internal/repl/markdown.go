package repl

import (
	"io"
	"strings"

	"tai/internal/textsafe"
)

// Markdown renders a model's answer for a terminal as it streams, block by
// block: text is held until the block it belongs to is complete (a blank
// line, a heading's line, a code fence's closing line), then that block is
// rendered within the terminal's width: headings, emphasis, lists, quotes,
// tables, and code with its syntax coloured. Flush renders what is held,
// at the end of an answer or before anything else is drawn.
//
// The answer is untrusted: it is cleaned of control characters and escape
// sequences (textsafe.Clean) before it is parsed, so the only escapes
// written are the renderer's own colours.
type Markdown struct {
	w     io.Writer
	width func() int
	// pending is the current block's text; line the unfinished line.
	pending strings.Builder
	line    strings.Builder
	fence   string // the open code fence ("```", "~~~~"), "" outside one
	wrote   bool   // a block was written: the next one follows a blank line
}

// NewMarkdown renders to w at the width width reports (0: 80 columns).
func NewMarkdown(w io.Writer, width func() int) *Markdown {
	if width == nil {
		width = func() int { return 0 }
	}
	return &Markdown{w: w, width: width}
}

// Write takes the next piece of the answer.
func (m *Markdown) Write(text string) {
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			m.line.WriteString(text)
			return
		}
		m.line.WriteString(text[:i])
		text = text[i+1:]
		l := m.line.String()
		m.line.Reset()
		m.addLine(l)
	}
}

// addLine adds one complete line to the block, rendering the block when
// the line ends it.
func (m *Markdown) addLine(l string) {
	if m.fence != "" {
		m.pending.WriteString(l + "\n")
		if closesFence(l, m.fence) {
			m.fence = ""
			m.flushBlock()
		}
		return
	}
	switch {
	case strings.TrimSpace(l) == "":
		m.flushBlock()
	case isHeading(l):
		m.flushBlock()
		m.pending.WriteString(l + "\n")
		m.flushBlock()
	default:
		if f := openFence(l); f != "" {
			m.flushBlock()
			m.fence = f
		}
		m.pending.WriteString(l + "\n")
	}
}

// Flush renders everything held, the unfinished line too.
func (m *Markdown) Flush() {
	if m.line.Len() > 0 {
		m.pending.WriteString(m.line.String())
		m.line.Reset()
	}
	m.fence = ""
	m.flushBlock()
	m.wrote = false
}

// Pending reports whether text is held back.
func (m *Markdown) Pending() bool { return m.pending.Len() > 0 || m.line.Len() > 0 }

func (m *Markdown) flushBlock() {
	src := m.pending.String()
	m.pending.Reset()
	if strings.TrimSpace(src) == "" {
		return
	}
	out := renderMarkdown(textsafe.Clean(src), m.width())
	if out == "" {
		return
	}
	if m.wrote {
		out = "\n" + out
	}
	m.wrote = true
	io.WriteString(m.w, out)
}

func isHeading(l string) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || !strings.HasPrefix(t, "#") {
		return false
	}
	n := len(t) - len(strings.TrimLeft(t, "#"))
	return n <= 6 && (len(t) == n || t[n] == ' ' || t[n] == '\t')
}

// openFence is the fence a line opens ("```", "~~~"), or "".
func openFence(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := len(t) - len(strings.TrimLeft(t, string(c)))
		if n >= 3 && !(c == '`' && strings.ContainsRune(t[n:], '`')) {
			return t[:n]
		}
	}
	return ""
}

func closesFence(l, fence string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == ""
}
