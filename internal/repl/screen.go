package repl

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"tai/internal/textsafe"
)

// style is how a whole line is drawn.
type style int

const (
	plain style = iota
	dim
	warn
	bad
)

// sgr is the colour each style turns on; reset turns it off.
var sgr = map[style]string{dim: "\x1b[2m", warn: "\x1b[33m", bad: "\x1b[31m"}

const reset = "\x1b[0m"

// screen is the terminal the REPL writes to. Every write goes through it,
// so the spinner is erased before anything else is drawn and untrusted
// text is cleaned of control characters. Its methods are safe for
// concurrent use (the spinner ticks on its own goroutine).
type screen struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool // draw the spinner
	color bool
	width func() int // columns, 0 when unknown
	col0  bool       // the cursor is at the start of a line
	spin  *spinner
	// held is the end of the streamed text when it may be the start of
	// an escape sequence or of a character, kept until the next piece
	// shows what it is.
	held string
	// md renders the answer's Markdown, in colour on a terminal; nil
	// prints it as plain text.
	md *Markdown
}

func newScreen(w io.Writer, tty, color bool, width func() int) *screen {
	if width == nil {
		width = func() int { return 0 }
	}
	s := &screen{w: w, tty: tty, color: color && tty, width: width, col0: true}
	if s.color {
		s.md = NewMarkdown(heldWriter{s}, width)
	}
	return s
}

// heldWriter writes for the Markdown renderer, under the screen's lock.
type heldWriter struct{ s *screen }

func (h heldWriter) Write(p []byte) (int, error) {
	h.s.put(string(p))
	return len(p), nil
}

// Write copies p, trusted text of tai's own, to the terminal.
func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.put(string(p))
	return len(p), nil
}

// text streams untrusted text (the model's answer) as it arrives. An
// escape sequence split across pieces is removed whole.
func (s *screen) text(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.md != nil {
		s.md.Write(t)
		return
	}
	t, s.held = s.held+t, ""
	if k := unfinishedTail(t); k < len(t) {
		t, s.held = t[:k], t[k:]
	}
	s.put(textsafe.Clean(t))
}

// flush writes what text held back; s.mu is held.
func (s *screen) flush() {
	if s.md != nil {
		s.md.Flush()
	}
	if s.held != "" {
		t := s.held
		s.held = ""
		s.put(textsafe.Clean(t))
	}
}

// line prints untrusted text as one whole line in st, cut to the width of
// the terminal.
func (s *screen) line(st style, t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flush()
	if !s.col0 {
		s.put("\n")
	}
	s.put(s.styledLocked(st, t) + "\n")
}

// styled is t as line draws it, without writing it: made safe, fitted
// to the width and coloured.
func (s *screen) styled(st style, t string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.styledLocked(st, t)
}

func (s *screen) styledLocked(st style, t string) string {
	t = s.fit(textsafe.Line(t))
	if c := sgr[st]; c != "" && s.color {
		t = c + t + reset
	}
	return t
}

// endLine moves to the start of a fresh line unless already there, and
// stops the spinner.
func (s *screen) endLine() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flush()
	s.stopSpinner()
	if !s.col0 {
		s.put("\n")
	}
}

// put writes t after erasing the spinner; s.mu is held.
func (s *screen) put(t string) {
	if t == "" {
		return
	}
	s.eraseSpinner()
	io.WriteString(s.w, t)
	s.col0 = strings.HasSuffix(t, "\n")
}

// fit cuts t to the terminal's width (counting runes, which is exact for
// the narrow characters tai prints itself and close for the rest).
func (s *screen) fit(t string) string {
	w := s.width()
	if w <= 1 || utf8.RuneCountInString(t) < w {
		return t
	}
	r := []rune(t)
	return string(r[:w-2]) + "…"
}

// heldMax bounds what text holds back: a longer "sequence" is not one.
const heldMax = 256

// unfinishedTail is where t ends with the unfinished start of an escape
// sequence or of a UTF-8 character, else len(t).
func unfinishedTail(t string) int {
	for i := len(t) - 1; i >= 0 && i >= len(t)-utf8.UTFMax; i-- {
		if utf8.RuneStart(t[i]) {
			if !utf8.FullRuneInString(t[i:]) {
				return i
			}
			break
		}
	}
	k := strings.LastIndexByte(t, 0x1b)
	if k < 0 || len(t)-k > heldMax {
		return len(t)
	}
	rest := t[k+1:]
	switch {
	case rest == "":
		return k
	case rest[0] == '[':
		if strings.IndexFunc(rest[1:], func(r rune) bool { return r >= 0x40 && r <= 0x7e }) >= 0 {
			return len(t)
		}
		return k
	case strings.IndexByte("]P^_X", rest[0]) >= 0:
		if strings.IndexByte(rest, 0x07) >= 0 {
			return len(t)
		}
		return k // not ended yet (an ending ESC \ would be the last ESC)
	}
	return len(t)
}
