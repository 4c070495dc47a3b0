package web

import (
	"html"
	"net/url"
	"strings"
)

// skipped elements hold no readable text.
var skipped = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "svg": true,
	"iframe": true, "object": true, "canvas": true, "select": true, "button": true,
}

// blocks start on a new line; paragraphs also leave a blank line.
var (
	paragraphs = map[string]bool{"p": true, "pre": true, "blockquote": true, "table": true, "ul": true, "ol": true, "dl": true, "figure": true}
	blocks     = map[string]bool{
		"div": true, "section": true, "article": true, "main": true, "header": true, "footer": true,
		"nav": true, "aside": true, "form": true, "fieldset": true, "address": true, "details": true,
		"summary": true, "figcaption": true, "dt": true, "dd": true, "tr": true, "hr": true, "br": true,
		"li": true, "caption": true, "thead": true, "tbody": true, "tfoot": true,
	}
)

// htmlText converts an HTML page to plain text for a model: headings as
// "# …", list items as "- …", table cells split by " | ", links as
// [text](absolute URL), scripts and styles dropped, whitespace collapsed
// outside <pre>. It is forgiving, like browsers: any input gives some text.
func htmlText(doc string, base *url.URL) (title, text string) {
	w := &textWriter{base: base}
	lower := asciiLower(doc)
	for i := 0; i < len(doc); {
		if doc[i] != '<' {
			j := strings.IndexByte(doc[i:], '<')
			if j < 0 {
				j = len(doc) - i
			}
			w.text(html.UnescapeString(doc[i : i+j]))
			i += j
			continue
		}
		switch {
		case strings.HasPrefix(doc[i:], "<!--"):
			i = after(doc, i, "-->")
		case strings.HasPrefix(doc[i:], "<!"), strings.HasPrefix(doc[i:], "<?"):
			i = after(doc, i, ">")
		default:
			t, next, ok := parseTag(doc, i)
			if !ok {
				w.text("<")
				i++
				continue
			}
			i = next
			switch {
			case !t.end && t.name == "title":
				end := strings.Index(lower[i:], "</title")
				if end < 0 {
					end = len(doc) - i
				}
				title = strings.Join(strings.Fields(html.UnescapeString(doc[i:i+end])), " ")
				i = after(doc, i+end, ">")
			case !t.end && skipped[t.name]:
				end := strings.Index(lower[i:], "</"+t.name)
				if end < 0 {
					i = len(doc)
				} else {
					i = after(doc, i+end, ">")
				}
			default:
				w.tag(t)
			}
		}
	}
	return title, w.String()
}

// after returns the index just past the next sep at or after i, or the end.
func after(doc string, i int, sep string) int {
	j := strings.Index(doc[i:], sep)
	if j < 0 {
		return len(doc)
	}
	return i + j + len(sep)
}

// asciiLower lower-cases ASCII letters only, so indexes stay aligned.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// tag is one start or end tag; only href is kept of its attributes.
type tag struct {
	name string
	end  bool
	href string
}

// parseTag reads the tag at doc[i] == '<'. ok is false when no tag starts
// there (a lone "<" in text).
func parseTag(doc string, i int) (t tag, next int, ok bool) {
	j := i + 1
	if j < len(doc) && doc[j] == '/' {
		t.end = true
		j++
	}
	start := j
	for j < len(doc) && (isAlnum(doc[j]) || doc[j] == '-' || doc[j] == ':') {
		j++
	}
	if j == start || !isLetter(doc[start]) {
		return t, i, false
	}
	t.name = asciiLower(doc[start:j])
	for j < len(doc) && doc[j] != '>' {
		switch c := doc[j]; {
		case c == '"' || c == '\'':
			k := strings.IndexByte(doc[j+1:], c)
			if k < 0 {
				return t, len(doc), true
			}
			j += k + 2
		case isLetter(c):
			k := j
			for k < len(doc) && !strings.ContainsRune(" \t\r\n=>/", rune(doc[k])) {
				k++
			}
			name := asciiLower(doc[j:k])
			value, end := attrValue(doc, k)
			if name == "href" {
				t.href = html.UnescapeString(value)
			}
			j = end
		default:
			j++
		}
	}
	return t, min(j+1, len(doc)), true
}

// attrValue reads an optional "= value" at doc[k:].
func attrValue(doc string, k int) (string, int) {
	for k < len(doc) && strings.ContainsRune(" \t\r\n", rune(doc[k])) {
		k++
	}
	if k >= len(doc) || doc[k] != '=' {
		return "", k
	}
	k++
	for k < len(doc) && strings.ContainsRune(" \t\r\n", rune(doc[k])) {
		k++
	}
	if k < len(doc) && (doc[k] == '"' || doc[k] == '\'') {
		q := doc[k]
		e := strings.IndexByte(doc[k+1:], q)
		if e < 0 {
			return doc[k+1:], len(doc)
		}
		return doc[k+1 : k+1+e], k + e + 2
	}
	e := k
	for e < len(doc) && !strings.ContainsRune(" \t\r\n>", rune(doc[e])) {
		e++
	}
	return doc[k:e], e
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool  { return isLetter(c) || '0' <= c && c <= '9' }
