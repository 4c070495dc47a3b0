package tools

import (
	"strings"
	"unicode/utf8"

	"tai/internal/textsafe"
)

// blanks are what [Summary] folds into single spaces.
const blanks = " \t\n"

// Summary is the first sentence of a description's first paragraph on one
// line, cut to max characters at a word boundary. Listings show it, and a
// person chooses tools from them: descriptions of bridged tools are
// untrusted, so every character but blanks is shown, control and
// invisible ones as escapes ([textsafe.VisibleLine]).
func Summary(desc string, max int) string {
	para, _, _ := strings.Cut(strings.Trim(desc, blanks), "\n\n")
	text := strings.Join(strings.FieldsFunc(para, func(r rune) bool { return strings.ContainsRune(blanks, r) }), " ")
	for _, end := range []string{". ", "? ", "! "} {
		if i := strings.Index(text, end); i > 0 {
			text = text[:i+1]
		}
	}
	if shown := textsafe.VisibleLine(text); utf8.RuneCountInString(shown) <= max {
		return shown
	}
	head := strings.TrimSuffix(textsafe.VisibleMax(text, max), "…")
	// An escape holds no space, so cutting at one splits none.
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		head = head[:i]
	}
	return head + "…"
}
