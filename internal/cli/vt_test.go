package cli

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// vt is just enough of a terminal to read what a person would see: it
// keeps a grid of characters and obeys the cursor movements and erasures
// that liner and tai's spinner use. Colours and modes are ignored.
type vt struct {
	cols    int
	rows    [][]rune
	x, y    int
	pending []byte // an escape sequence or rune split across writes
}

func newVT(cols int) *vt { return &vt{cols: cols, rows: [][]rune{nil}} }

func (v *vt) write(b []byte) {
	b = append(v.pending, b...)
	v.pending = nil
	for len(b) > 0 {
		n := v.step(b)
		if n == 0 { // incomplete: wait for more
			v.pending = append([]byte(nil), b...)
			return
		}
		b = b[n:]
	}
}

// step consumes one character or control sequence, or returns 0 when b
// holds only its beginning.
func (v *vt) step(b []byte) int {
	switch c := b[0]; {
	case c == 0x1b:
		return v.escape(b)
	case c == '\r':
		v.x = 0
	case c == '\n':
		v.down(1)
	case c == '\b':
		v.x = max(v.x-1, 0)
	case c == '\t':
		v.x = (v.x/8 + 1) * 8
	case c < 0x20 || c == 0x7f:
	default:
		if !utf8.FullRune(b) {
			return 0
		}
		r, n := utf8.DecodeRune(b)
		v.put(r)
		return n
	}
	return 1
}

func (v *vt) escape(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	if b[1] != '[' {
		return 2
	}
	for i := 2; i < len(b); i++ {
		if b[i] >= 0x40 && b[i] <= 0x7e {
			v.csi(string(b[2:i]), b[i])
			return i + 1
		}
	}
	return 0
}

func (v *vt) csi(params string, final byte) {
	if strings.HasPrefix(params, "?") {
		return // private modes
	}
	var n []int
	for _, p := range strings.Split(params, ";") {
		x, _ := strconv.Atoi(p)
		n = append(n, x)
	}
	arg := func(i, def int) int {
		if i < len(n) && n[i] > 0 {
			return n[i]
		}
		return def
	}
	line := v.line()
	switch final {
	case 'K':
		switch arg(0, 0) {
		case 0:
			if v.x < len(*line) {
				*line = (*line)[:v.x]
			}
		case 1:
			for i := 0; i <= v.x && i < len(*line); i++ {
				(*line)[i] = ' '
			}
		case 2:
			*line = nil
		}
	case 'G':
		v.x = arg(0, 1) - 1
	case 'C':
		v.x += arg(0, 1)
	case 'D':
		v.x = max(v.x-arg(0, 1), 0)
	case 'A':
		v.y = max(v.y-arg(0, 1), 0)
	case 'B':
		v.down(arg(0, 1))
	case 'H':
		v.y, v.x = arg(0, 1)-1, arg(1, 1)-1
		v.down(0)
	case 'J':
		if arg(0, 0) == 2 {
			v.rows, v.x, v.y = [][]rune{nil}, 0, 0
		} else {
			*line = (*line)[:min(v.x, len(*line))]
			v.rows = v.rows[:v.y+1]
		}
	}
}

func (v *vt) line() *[]rune { return &v.rows[v.y] }

func (v *vt) down(n int) {
	v.y += n
	for len(v.rows) <= v.y {
		v.rows = append(v.rows, nil)
	}
}

func (v *vt) put(r rune) {
	if v.x >= v.cols {
		v.x = 0
		v.down(1)
	}
	line := v.line()
	for len(*line) <= v.x {
		*line = append(*line, ' ')
	}
	(*line)[v.x] = r
	v.x++
}

// text is the screen, every line without its trailing blanks.
func (v *vt) text() string {
	out := make([]string, len(v.rows))
	for i, r := range v.rows {
		out[i] = strings.TrimRight(string(r), " ")
	}
	return strings.Join(out, "\n")
}

// cursorLine is the text of the line the cursor is on.
func (v *vt) cursorLine() string { return strings.TrimRight(string(v.rows[v.y]), " ") }
