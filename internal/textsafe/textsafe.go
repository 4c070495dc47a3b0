// Package textsafe makes untrusted text (tool descriptions, server output,
// model output) harmless for a terminal. Text a person decides on is
// rendered with [Visible], which shows every control and invisible
// character as an escape; text that is only read, such as the model's
// streamed answer, goes through [Clean], which removes them.
package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean removes terminal escape sequences (CSI, OSC, DCS and the like) and
// every control character except newline and tab. Invalid UTF-8 becomes
// U+FFFD. It drops what it removes, so it is never used for text a
// person approves: that is [Visible]'s.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b: // C1 CSI
			i += size + csiBodyLen(s[i+size:])
			continue
		case r == 0x9d, r == 0x90, r == 0x9e, r == 0x9f: // C1 OSC, DCS, PM, APC
			i += size + stringBodyLen(s[i+size:])
			continue
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			// Carriage returns can overwrite what was printed; drop them.
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', isBidi(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Line is Clean for text shown on one line: newlines and tabs become spaces.
func Line(s string) string {
	s = Clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidi reports the bidirectional overrides that can disguise text.
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f
}

// escapeLen is the length of the escape sequence at the start of s (s[0]
// is ESC).
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiBodyLen(s[2:])
	case ']', 'P', '^', '_', 'X':
		return 2 + stringBodyLen(s[2:])
	case '(', ')', '*', '+', '#', '%':
		return min(3, len(s))
	default:
		return 2
	}
}

// csiBodyLen consumes parameter and intermediate bytes through the final
// byte of a CSI sequence.
func csiBodyLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c > 0x3f && c < 0x40 {
			return i
		}
	}
	return len(s)
}

// stringBodyLen consumes an OSC/DCS string through BEL or ST (ESC \ or 0x9c).
func stringBodyLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}

// Head is the longest beginning of s of at most n bytes that does not end
// inside a UTF-8 sequence: s itself when it fits, so that text cut to a
// size never ends in half a character.
func Head[T ~string | ~[]byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
