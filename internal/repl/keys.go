package repl

import (
	"unicode/utf8"
)

// keyKind names what a key press (or a paste) does in the editor.
type keyKind int

const (
	keyRune      keyKind = iota // a character to insert
	keyEnter                    // Enter (or Ctrl-J): submit
	keyNewline                  // Alt-Enter: a new line in the message
	keyPaste                    // a bracketed paste, whole, in text
	keyBackspace                // Backspace
	keyDelete                   // Delete
	keyLeft
	keyRight
	keyUp
	keyDown
	keyHome // Home, Ctrl-A
	keyEnd  // End, Ctrl-E
	keyKillEnd
	keyKillStart
	keyKillWord
	keyTab
	keyInterrupt // Ctrl-C
	keyEOF       // Ctrl-D
	keyEscape    // Esc alone
	keyClear     // Ctrl-L
	keyIgnored   // a sequence the editor does not use
	keyNote      // not a key: a line to show above the message (Editor.Interject), in text
)

type key struct {
	kind keyKind
	r    rune
	text string // keyPaste, keyNote
}

// Bracketed paste: a terminal in mode 2004 wraps what is pasted in these,
// so newlines inside a paste are text, not Enter.
const (
	pasteOn    = "\x1b[?2004h"
	pasteOff   = "\x1b[?2004l"
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// controlKeys are the one-byte keys: Backspace and the Emacs-style
// control keys.
var controlKeys = map[byte]keyKind{
	0x7f: keyBackspace, 0x08: keyBackspace,
	0x01: keyHome, 0x05: keyEnd, 0x02: keyLeft, 0x06: keyRight,
	0x10: keyUp, 0x0e: keyDown,
	0x0b: keyKillEnd, 0x15: keyKillStart, 0x17: keyKillWord,
	'\t': keyTab, 0x03: keyInterrupt, 0x04: keyEOF, 0x0c: keyClear,
}

// decodeKey reads one key from the start of b. It returns the key and how
// many bytes it took; n is 0 when b holds only the start of a key (an
// escape sequence, a character or a paste not yet complete), so the
// caller reads more. final says no more input is coming soon, which makes
// a lone ESC the Escape key rather than the start of a sequence.
func decodeKey(b []byte, final bool) (k key, n int) {
	if len(b) == 0 {
		return key{}, 0
	}
	c := b[0]
	switch c {
	case '\r', '\n':
		// '\n' is Enter too: what is typed while a turn runs reaches the
		// editor through the terminal's cooked mode, which turns Enter's
		// CR into LF. So Ctrl-J cannot be the newline key.
		return key{kind: keyEnter}, 1
	case 0x1b:
		return decodeEscape(b, final)
	}
	if k, ok := controlKeys[c]; ok {
		return key{kind: k}, 1
	}
	if c < 0x20 {
		return key{kind: keyIgnored}, 1
	}
	if !utf8.FullRune(b) {
		if final {
			return key{kind: keyIgnored}, 1
		}
		return key{}, 0
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError {
		return key{kind: keyIgnored}, size
	}
	return key{kind: keyRune, r: r}, size
}

// decodeEscape reads a key that starts with ESC.
func decodeEscape(b []byte, final bool) (key, int) {
	if len(b) == 1 {
		if final {
			return key{kind: keyEscape}, 1
		}
		return key{}, 0
	}
	switch b[1] {
	case '\r', '\n':
		return key{kind: keyNewline}, 2 // Alt-Enter
	case '[', 'O':
	default:
		return key{kind: keyIgnored}, 2 // Alt-something
	}
	// A CSI or SS3 sequence: parameters, then a final byte 0x40–0x7e.
	end := -1
	for i := 2; i < len(b); i++ {
		if b[i] >= 0x40 && b[i] <= 0x7e {
			end = i
			break
		}
	}
	if end < 0 {
		if final || len(b) > 32 {
			return key{kind: keyIgnored}, len(b)
		}
		return key{}, 0
	}
	seq := string(b[:end+1])
	if seq == pasteStart {
		return decodePaste(b, final)
	}
	k := key{kind: keyIgnored}
	switch seq[1:] {
	case "[A", "OA":
		k.kind = keyUp
	case "[B", "OB":
		k.kind = keyDown
	case "[C", "OC":
		k.kind = keyRight
	case "[D", "OD":
		k.kind = keyLeft
	case "[H", "OH", "[1~", "[7~":
		k.kind = keyHome
	case "[F", "OF", "[4~", "[8~":
		k.kind = keyEnd
	case "[3~":
		k.kind = keyDelete
	case "[13;2u", "[13;3u", "[27;2;13~", "[27;3;13~": // Shift- or Alt-Enter, modifier-reporting terminals
		k.kind = keyNewline
	}
	return k, end + 1
}

// decodePaste reads a whole bracketed paste; until its end marker arrives
// it takes nothing. Line endings become "\n".
func decodePaste(b []byte, final bool) (key, int) {
	body := b[len(pasteStart):]
	end := indexOf(body, pasteEnd)
	if end < 0 {
		if !final {
			return key{}, 0
		}
		// The terminal never closed it: take what came.
		return key{kind: keyPaste, text: pasteText(body)}, len(b)
	}
	return key{kind: keyPaste, text: pasteText(body[:end])}, len(pasteStart) + end + len(pasteEnd)
}

func indexOf(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// pasteText is pasted bytes as message text: CRLF and CR are newlines, and
// other control characters (an escape sequence inside a paste) are dropped.
func pasteText(b []byte) string {
	out := make([]rune, 0, len(b))
	s := string(b)
	for i, r := range s {
		switch {
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
		case r == '\n' || r == '\t' || r >= 0x20 && r != 0x7f && r != utf8.RuneError:
			out = append(out, r)
		}
	}
	return string(out)
}
