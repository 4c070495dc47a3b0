// Package clip bounds what tools return: a Buffer keeps the head and tail of
// output of any length in fixed memory and counts what it drops, and Clean
// makes untrusted output printable.
package clip

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// lineSlack is how far a cut may move to land on a line boundary.
const lineSlack = 512

// Buffer is an io.Writer that keeps the first head bytes and the last tail
// bytes written to it and counts the bytes in between. Its memory is bounded
// by head+2*tail whatever is written. It is safe for concurrent use.
type Buffer struct {
	mu      sync.Mutex
	headCap int
	tailCap int
	head    []byte
	tail    []byte // the last tailCap bytes end here; may hold up to 2*tailCap
	total   int64
}

// New returns a Buffer keeping head bytes from the start and tail bytes from
// the end. A tail of 0 keeps only the start.
func New(head, tail int) *Buffer {
	return &Buffer{headCap: head, tailCap: tail}
}

// Write records p. It never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if room := b.headCap - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if b.tailCap == 0 || len(p) == 0 {
		return n, nil
	}
	if b.tail == nil {
		b.tail = make([]byte, 0, 2*b.tailCap)
	}
	// One byte more than tailCap is kept when there is one, so String can
	// tell whether the tail starts at a line start.
	if len(p) >= b.tailCap {
		b.tail = append(b.tail[:0], p[len(p)-min(len(p), b.tailCap+1):]...)
		return n, nil
	}
	if len(b.tail)+len(p) > 2*b.tailCap {
		keep := b.tail[len(b.tail)-(b.tailCap+1-len(p)):]
		b.tail = b.tail[:copy(b.tail, keep)]
	}
	b.tail = append(b.tail, p...)
	return n, nil
}

// Skipped counts n bytes of the stream that never reached b (dropped
// upstream) as elided. The marker stands between head and tail, so use it
// with a Buffer that keeps no head, or before the head fills.
func (b *Buffer) Skipped(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += n
}

// Total is the number of bytes written or skipped so far.
func (b *Buffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// String renders what was kept as printable text (see [Clean]). When bytes
// were dropped, a line "[… N bytes elided …]" stands in their place; the
// cut moves to a line boundary when one is near.
func (b *Buffer) String() string {
	b.mu.Lock()
	head, tail, total := b.head, b.tail, b.total
	lineStart := true // whether the tail starts a line; unknown counts as yes
	if len(tail) > b.tailCap {
		lineStart = tail[len(tail)-b.tailCap-1] == '\n'
		tail = tail[len(tail)-b.tailCap:]
	}
	head, tail = bytes.Clone(head), bytes.Clone(tail)
	b.mu.Unlock()

	if int64(len(head)+len(tail)) == total {
		return Clean(string(head) + string(tail))
	}
	head, tail = cutHead(head), cutTail(tail, lineStart)
	elided := total - int64(len(head)) - int64(len(tail))
	var s strings.Builder
	s.WriteString(Clean(string(head)))
	if len(head) > 0 && head[len(head)-1] != '\n' {
		s.WriteByte('\n')
	}
	s.WriteString("[… " + Count(elided) + " bytes elided …]\n")
	s.WriteString(Clean(string(tail)))
	return s.String()
}

// cutHead ends head at a line end near its end, else at a whole rune.
func cutHead(head []byte) []byte {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && len(head)-i <= lineSlack {
		return head[:i+1]
	}
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				return head[:i]
			}
			break
		}
	}
	return head
}

// cutTail starts tail after a line end near its start, unless it starts a
// line already, else at a whole rune.
func cutTail(tail []byte, lineStart bool) []byte {
	if lineStart {
		return trimRuneStart(tail)
	}
	if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < lineSlack {
		return tail[i+1:]
	}
	return trimRuneStart(tail)
}

func trimRuneStart(tail []byte) []byte {
	for i := 0; i < len(tail) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(tail[i]) {
			return tail[i:]
		}
	}
	return tail
}

// Count formats n with thousands separators: 1234567 → "1,234,567".
func Count(n int64) string {
	if n < 0 {
		return "-" + Count(-n)
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
