package clip

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Clean returns s as printable UTF-8: terminal escape sequences (CSI, OSC,
// DCS and the rest) and control characters other than tab and newline are
// removed, a carriage return becomes a line end, and invalid bytes become
// U+FFFD. Output from commands and servers passes through it before it
// reaches the model or a terminal.
func Clean(s string) string {
	var b strings.Builder
	c := cleaner{w: &b}
	c.Write([]byte(s))
	if len(c.partial) > 0 {
		b.WriteRune(utf8.RuneError)
	}
	return b.String()
}

// CleanWriter returns a writer that passes what is written to w through
// the same filter as [Clean], holding back a rune split across writes.
func CleanWriter(w io.Writer) io.Writer { return &cleaner{w: w} }

// Escape-sequence states.
const (
	plain  = iota
	esc    // after ESC
	escArg // after ESC ( and friends: one more byte follows
	csi    // parameters until a final byte
	str    // OSC, DCS, SOS, PM, APC: until BEL or ST
	strEsc // ESC inside a string: ST if '\' follows
)

type cleaner struct {
	w       io.Writer
	state   int
	cr      bool   // a carriage return waits: a line end unless '\n' follows
	partial []byte // an incomplete rune from the previous write
}

func (c *cleaner) Write(p []byte) (int, error) {
	in := p
	if len(c.partial) > 0 {
		in = append(c.partial, p...)
		c.partial = nil
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		r, size := utf8.DecodeRune(in[i:])
		if r == utf8.RuneError && size <= 1 && !utf8.FullRune(in[i:]) {
			c.partial = append([]byte(nil), in[i:]...)
			break
		}
		out = c.rune(out, r)
		i += size
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (c *cleaner) rune(out []byte, r rune) []byte {
	switch c.state {
	case esc:
		switch r {
		case '[':
			c.state = csi
		case ']', 'P', 'X', '^', '_':
			c.state = str
		case '(', ')', '*', '+', '#', '%':
			c.state = escArg
		default:
			c.state = plain
		}
		return out
	case escArg:
		c.state = plain
		return out
	case csi:
		if r >= 0x40 && r <= 0x7e {
			c.state = plain
		}
		return out
	case str:
		switch r {
		case 0x07, 0x9c:
			c.state = plain
		case 0x1b:
			c.state = strEsc
		}
		return out
	case strEsc:
		c.state = str
		if r == '\\' {
			c.state = plain
		}
		return out
	}
	switch {
	case r == 0x1b:
		c.state = esc
	case r == 0x9b:
		c.state = csi
	case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f:
		c.state = str
	case r == '\r':
		c.cr = true
	case r == '\n':
		c.cr = false
		out = append(out, '\n')
	case r < 0x20 && r != '\t', r >= 0x7f && r < 0xa0:
		// dropped
	default:
		if c.cr {
			out = append(out, '\n')
			c.cr = false
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}
