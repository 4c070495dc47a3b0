package textsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible renders untrusted text for a person who decides on it (an
// approval screen, a server's launch, a pin diff, a listing of names):
// every character is shown, none is dropped. Control characters appear as
// escapes (\x1b, \x07, \r), invisible and format characters (zero-width
// and bidirectional marks, Unicode tags, variation selectors, spaces
// other than U+0020, private-use and unassigned code points) as <U+E0041>,
// and bytes that are not UTF-8 as \xff. A line break stays a line break
// and a tab a tab, since the text may be a multi-line command or a diff;
// [VisibleLine] escapes those too.
//
// The rendering is for reading, not for decoding: a backslash in s is
// shown as itself, so s can spell what looks like an escape. Callers that
// need to say that something was escaped use [Hidden].
//
// Text that is only read, not decided on (the model's answer, a tool's
// output) goes through [Clean] instead: there, escape sequences are
// formatting the person is better off without.
func Visible(s string) string { return render(s, false, -1) }

// VisibleLine is [Visible] for text shown on one line: a line break is
// shown as \n and a tab as \t, so a person sees that one was there.
func VisibleLine(s string) string { return render(s, true, -1) }

// VisibleMax is [VisibleLine] cut to at most max runes, never inside an
// escape, with "…" marking a cut.
func VisibleMax(s string, max int) string { return render(s, true, max) }

// Hidden reports whether s holds anything [VisibleLine] shows as an
// escape: a control, invisible or format character, or invalid UTF-8.
func Hidden(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || needsEscape(r, true) {
			return true
		}
		i += size
	}
	return false
}

// render writes s visibly; max < 0 means no limit.
func render(s string, line bool, max int) string {
	if max < 0 && isShown(s, line) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	n := 0
	pieces(s, line, func(_, out string) bool {
		if max >= 0 {
			k := utf8.RuneCountInString(out)
			if n+k > max {
				b.WriteString("…")
				return false
			}
			n += k
		}
		b.WriteString(out)
		return true
	})
	return b.String()
}

// isShown reports whether s is already its own rendering: printable ASCII
// (with line breaks and tabs unless line).
func isShown(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || c < 0x20 && (line || c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// pieces splits s into runes (or single invalid bytes) and calls fn with
// each one and how it is shown, in order, until fn returns false. The
// pieces' inputs put together are s: nothing is skipped.
func pieces(s string, line bool, fn func(in, out string) bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		in := s[i : i+size]
		out := in
		switch {
		case r == utf8.RuneError && size <= 1:
			out = fmt.Sprintf(`\x%02x`, s[i])
		case needsEscape(r, line):
			out = escape(r)
		}
		if !fn(in, out) {
			return
		}
		i += size
	}
}

// escape is how a character that cannot be shown as itself appears.
func escape(r rune) string {
	switch {
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r == '\t':
		return `\t`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf("<U+%04X>", r)
}

// needsEscape reports whether r would be invisible, or would act on the
// terminal, if printed as itself. Line breaks and tabs are shown as they
// are unless line.
func needsEscape(r rune, line bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return line
	case r == ' ':
		return false
	case r < 0x7f:
		return r < 0x20
	}
	// Graphic leaves controls (C0, C1), format characters (Cf: zero-width
	// marks, bidi controls, tags, U+FEFF), line and paragraph separators,
	// private use and unassigned code points; of the graphic ones, the
	// spaces other than U+0020 and the characters that draw nothing are
	// escaped as well.
	return !unicode.IsGraphic(r) || unicode.Is(unicode.Zs, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		r == 0x2800 // braille pattern blank
}
