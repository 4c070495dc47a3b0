package tools

import (
	"strings"

	"tai/internal/textsafe"
)

// Summary is the first sentence of a description's first paragraph, made
// safe for a terminal (descriptions of bridged tools are untrusted) and cut
// to max characters at a word boundary. Listings show it.
func Summary(desc string, max int) string {
	para, _, _ := strings.Cut(strings.TrimSpace(desc), "\n\n")
	text := strings.Join(strings.Fields(textsafe.Line(para)), " ")
	for _, end := range []string{". ", "? ", "! "} {
		if i := strings.Index(text, end); i > 0 {
			text = text[:i+1]
		}
	}
	runes := []rune(text)
	if len(runes) <= max {
		return text
	}
	head := string(runes[:max])
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		head = head[:i]
	}
	return head + "…"
}
