package client

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"tai/internal/lazyre"
	"tai/internal/mcp/wire"
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

// quotedLines is how many meaningful stderr lines an error quotes.
const quotedLines = 3

// lastLines returns up to n of the last meaningful lines, oldest first.
// Left out, since they would hide the line that says what went wrong:
// blank lines, a package runner's pointer to its own log file (npm's "A
// complete log of this run can be found in …", which ends every npm
// failure), stack frames, lines of brackets alone, and the runtime's
// version banner that ends a Node.js crash.
func (t *tail) lastLines(n int) []string {
	lines := strings.Split(t.String(), "\n")
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		line := strings.TrimSpace(lines[i])
		if line == "" || noise(line) {
			continue
		}
		out = append(out, line)
	}
	slices.Reverse(out)
	return out
}

// noiseLine matches lines that say nothing about why a server failed.
var noiseLine = lazyre.New(`A complete log of this run can be found in|npm error Log files were not written|` +
	`^(npm error|npm ERR!)$|^at \S.*(:\d+\)?|\((native|<anonymous>)\))( \{)?$|^[\s\[\]{}()^~,;]*$|^Node\.js v\d+\.\d+\.\d+$`)

func noise(line string) bool { return noiseLine.MatchString(line) }

// quote is the end of stderr as an error quotes it, once: the last few
// meaningful lines joined with " | ", or "" when there are none.
func (t *tail) quote() string {
	lines := t.lastLines(quotedLines)
	if len(lines) == 0 {
		return ""
	}
	for i, l := range lines {
		lines[i] = wire.Printable(l, 300)
	}
	return "; its stderr ends: " + strings.Join(lines, " | ")
}
