package repl

import (
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// buffer is the message being edited: lines of runes and a cursor.
type buffer struct {
	lines [][]rune
	row   int // cursor line
	col   int // cursor position in the line, in runes
}

func newBuffer(s string) *buffer {
	b := &buffer{}
	b.set(s)
	return b
}

func (b *buffer) set(s string) {
	b.lines = nil
	for _, l := range strings.Split(s, "\n") {
		b.lines = append(b.lines, []rune(l))
	}
	b.row = len(b.lines) - 1
	b.col = len(b.lines[b.row])
}

func (b *buffer) String() string {
	parts := make([]string, len(b.lines))
	for i, l := range b.lines {
		parts[i] = string(l)
	}
	return strings.Join(parts, "\n")
}

func (b *buffer) empty() bool { return len(b.lines) == 1 && len(b.lines[0]) == 0 }

// insert puts text at the cursor; "\n" in it starts new lines.
func (b *buffer) insert(text string) {
	for i, part := range strings.Split(text, "\n") {
		if i > 0 {
			b.newline()
		}
		l := b.lines[b.row]
		rs := []rune(part)
		l = append(l[:b.col], append(rs, l[b.col:]...)...)
		b.lines[b.row] = l
		b.col += len(rs)
	}
}

// newline splits the line at the cursor.
func (b *buffer) newline() {
	l := b.lines[b.row]
	head, tail := append([]rune(nil), l[:b.col]...), append([]rune(nil), l[b.col:]...)
	b.lines = append(b.lines[:b.row+1], b.lines[b.row:]...)
	b.lines[b.row], b.lines[b.row+1] = head, tail
	b.row, b.col = b.row+1, 0
}

func (b *buffer) backspace() {
	switch {
	case b.col > 0:
		l := b.lines[b.row]
		b.lines[b.row] = append(l[:b.col-1], l[b.col:]...)
		b.col--
	case b.row > 0:
		prev := b.lines[b.row-1]
		b.col = len(prev)
		b.lines[b.row-1] = append(prev, b.lines[b.row]...)
		b.lines = append(b.lines[:b.row], b.lines[b.row+1:]...)
		b.row--
	}
}

func (b *buffer) del() {
	l := b.lines[b.row]
	switch {
	case b.col < len(l):
		b.lines[b.row] = append(l[:b.col], l[b.col+1:]...)
	case b.row+1 < len(b.lines):
		b.lines[b.row] = append(l, b.lines[b.row+1]...)
		b.lines = append(b.lines[:b.row+1], b.lines[b.row+2:]...)
	}
}

func (b *buffer) left() {
	switch {
	case b.col > 0:
		b.col--
	case b.row > 0:
		b.row--
		b.col = len(b.lines[b.row])
	}
}

func (b *buffer) right() {
	switch {
	case b.col < len(b.lines[b.row]):
		b.col++
	case b.row+1 < len(b.lines):
		b.row++
		b.col = 0
	}
}

// vertical moves the cursor a line up (-1) or down (1); it reports false
// at the first or last line, where the editor walks the history instead.
func (b *buffer) vertical(d int) bool {
	r := b.row + d
	if r < 0 || r >= len(b.lines) {
		return false
	}
	b.row = r
	b.col = min(b.col, len(b.lines[r]))
	return true
}

func (b *buffer) killEnd()   { b.lines[b.row] = b.lines[b.row][:b.col] }
func (b *buffer) killStart() { b.lines[b.row] = b.lines[b.row][b.col:]; b.col = 0 }

func (b *buffer) killWord() {
	l := b.lines[b.row]
	i := b.col
	for i > 0 && unicode.IsSpace(l[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(l[i-1]) {
		i--
	}
	b.lines[b.row] = append(l[:i], l[b.col:]...)
	b.col = i
}

// layout is the buffer drawn at width columns: the screen rows, and the
// cursor's row and column among them. Line 0 follows prompt; the others
// follow as many blanks. Rows are cut by the editor, not wrapped by the
// terminal, so it always knows where the cursor is.
func (b *buffer) layout(prompt string, width int) (rows []string, crow, ccol int) {
	if width < 2 {
		width = 80
	}
	pw := runewidth.StringWidth(prompt)
	if pw >= width-1 {
		prompt, pw = "", 0
	}
	indent := strings.Repeat(" ", pw)
	for i, l := range b.lines {
		lead := indent
		if i == 0 {
			lead = prompt
		}
		var cur strings.Builder
		cur.WriteString(lead)
		w := pw
		for j, r := range l {
			if i == b.row && j == b.col {
				crow, ccol = len(rows), w
			}
			rw := runewidth.RuneWidth(r)
			if r == '\t' {
				r, rw = ' ', 1
			}
			if rw == 0 || !unicode.IsPrint(r) {
				r, rw = '?', 1
			}
			if w+rw > width {
				rows = append(rows, cur.String())
				cur.Reset()
				w = 0
				if i == b.row && j == b.col {
					crow, ccol = len(rows), 0
				}
			}
			cur.WriteRune(r)
			w += rw
		}
		if i == b.row && b.col == len(l) {
			crow, ccol = len(rows), w
			if w >= width { // the cursor after a full row starts the next
				rows = append(rows, cur.String())
				cur.Reset()
				crow, ccol = len(rows), 0
			}
		}
		rows = append(rows, cur.String())
	}
	return rows, crow, ccol
}
