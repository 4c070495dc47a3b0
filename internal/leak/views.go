package leak

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// view is the outgoing text, possibly unescaped, that needles are looked
// for in; how says what was undone, for the refusal.
type view struct {
	text []byte
	how  string
}

// maxUnescape is how many layers of escaping are undone: one covers a URL
// or a JSON body, two a percent-encoded value inside JSON (or %2541).
const maxUnescape = 2

// views returns t as sent, then unescaped once and twice while that
// changes anything, and finally the last of these without whitespace
// (base64 wrapped every 76 characters, hex printed in groups) when it has
// any. Each view is searched for every needle, so a layer that would hide
// a secret holding '%' or '\' never loses it: the layer before still has it.
func views(t []byte) []view {
	out := []view{{t, ""}}
	cur, how := t, ""
	for range maxUnescape {
		next, what := unescape(cur)
		if what == 0 {
			break
		}
		how = joinHow(how, what)
		cur = next
		out = append(out, view{cur, "after " + how})
	}
	if stripped, ok := stripSpace(cur); ok {
		if how == "" {
			how = "after removing whitespace"
		} else {
			how = "after " + how + " and removing whitespace"
		}
		out = append(out, view{stripped, how})
	}
	return out
}

// What unescape undid.
const (
	percent = 1 << iota
	jsonEsc
)

func joinHow(how string, what int) string {
	var s string
	switch what {
	case percent:
		s = "percent-decoding"
	case jsonEsc:
		s = "JSON unescaping"
	default:
		s = "percent-decoding and JSON unescaping"
	}
	switch how {
	case "":
		return s
	case s:
		return s + " twice"
	}
	return how + ", then " + s
}

// unescape undoes, leniently and in one pass, %XX (URLs and form bodies,
// fully or partly encoded) and the backslash escapes of JSON and most
// languages' string literals (\uXXXX with surrogate pairs, \xXX, \n, \/ …).
// Anything that is not a complete escape stays as it is. '+' is left
// alone: decoding it to a space would hide a secret holding a '+'.
func unescape(t []byte) ([]byte, int) {
	what := 0
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '%' && i+2 < len(t) && isHex(t[i+1]) && isHex(t[i+2]):
			out = append(out, unhex(t[i+1])<<4|unhex(t[i+2]))
			i += 2
			what |= percent
		case c == '\\' && i+1 < len(t):
			n, adv := backslash(t[i+1:])
			if adv == 0 {
				out = append(out, c)
				continue
			}
			out = append(out, n...)
			i += adv
			what |= jsonEsc
		default:
			out = append(out, c)
		}
	}
	return out, what
}

var simple = map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f', '/': '/', '\\': '\\', '"': '"', '\'': '\''}

// backslash decodes the escape after a backslash in t, returning its bytes
// and how many bytes of t it used (0: not an escape).
func backslash(t []byte) ([]byte, int) {
	if c, ok := simple[t[0]]; ok {
		return []byte{c}, 1
	}
	switch {
	case t[0] == 'x' && len(t) >= 3 && isHex(t[1]) && isHex(t[2]):
		return []byte{unhex(t[1])<<4 | unhex(t[2])}, 3
	case t[0] == 'u':
		r, ok := hex4(t[1:])
		if !ok {
			return nil, 0
		}
		adv := 5
		if utf16.IsSurrogate(r) {
			if len(t) >= 11 && t[5] == '\\' && t[6] == 'u' {
				if r2, ok := hex4(t[7:]); ok {
					r = utf16.DecodeRune(r, r2)
					adv = 11
				}
			}
		}
		return utf8.AppendRune(nil, r), adv
	}
	return nil, 0
}

func hex4(t []byte) (rune, bool) {
	if len(t) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range t[:4] {
		if !isHex(c) {
			return 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// stripSpace returns t without ASCII whitespace, and whether it had any.
func stripSpace(t []byte) ([]byte, bool) {
	i := bytes.IndexAny(t, " \t\n\r\v\f")
	if i < 0 {
		return nil, false
	}
	out := append(make([]byte, 0, len(t)), t[:i]...)
	for _, c := range t[i:] {
		if !space[c] {
			out = append(out, c)
		}
	}
	return out, true
}

var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\v': true, '\f': true}
