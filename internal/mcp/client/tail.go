package client

import (
	"strings"
	"sync"
	"unicode/utf8"

	"tai/internal/textsafe"
)

// tailMax bounds what a connection keeps of its server's stderr and of
// tai's own notes about that server.
const tailMax = 32 << 10

// tail keeps the last tailMax bytes written to it. A server's stderr is
// drained into it and never parsed; tai adds notes about input it skipped.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps the end of p and of what came before; it never fails, so a
// flooding server cannot stall its drain.
func (t *tail) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > tailMax {
		p = p[len(p)-tailMax:]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if over := len(t.buf) + len(p) - tailMax; over > 0 {
		t.buf = t.buf[:copy(t.buf, t.buf[over:])]
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// note adds one line of tai's own, marked as such.
func (t *tail) note(line string) {
	t.Write([]byte("tai: " + line + "\n"))
}

// String returns what is kept, made safe for a terminal (textsafe.Clean).
func (t *tail) String() string {
	t.mu.Lock()
	b := t.buf
	if len(b) == tailMax { // the front may start inside a rune
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
			b = b[1:]
		}
	}
	s := string(b)
	t.mu.Unlock()
	return textsafe.Clean(s)
}

// lastLine returns the last non-empty line, for quoting in an error.
func (t *tail) lastLine() string {
	s := strings.TrimRight(t.String(), "\n ")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
