package search

import (
	"regexp"
	"strings"
)

// pattern is one .gitignore rule, or a glob argument, which uses the same
// syntax: *, ? and [...] within a path segment, ** across segments. A
// pattern with a slash other than a trailing one is anchored to its
// directory; one without matches a name at any depth.
type pattern struct {
	re       *regexp.Regexp
	negate   bool // "!pattern": re-include
	dirOnly  bool // "pattern/": directories only
	anchored bool
}

// parsePattern compiles one line of a .gitignore; ok is false for blank
// lines, comments and patterns that cannot be compiled.
func parsePattern(line string) (p pattern, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return p, false
	}
	switch {
	case line[0] == '!':
		p.negate, line = true, line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false
	}
	p.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	re, err := regexp.Compile("^" + globRegexp(line) + "$")
	if err != nil {
		return p, false
	}
	p.re = re
	return p, true
}

// trimTrailingSpaces drops trailing spaces unless escaped with a backslash.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// globRegexp translates a glob to a regular expression over slash
// separated paths.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.HasPrefix(g[i:], "**/") && (i == 0 || g[i-1] == '/'):
			b.WriteString("(?:.*/)?") // any number of leading directories
			i += 2
		case strings.HasPrefix(g[i:], "**") && i+2 == len(g) && i > 0 && g[i-1] == '/':
			b.WriteString(".*") // everything inside
			i++
		case c == '*':
			b.WriteString("[^/]*")
			for i+1 < len(g) && g[i+1] == '*' {
				i++
			}
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			class, n := charClass(g[i:])
			b.WriteString(class)
			i += n - 1
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		}
	}
	return b.String()
}

// charClass translates a bracket expression at the start of g and returns
// how many bytes it used; an unclosed bracket is a literal "[".
func charClass(g string) (string, int) {
	i := 1
	neg := false
	if i < len(g) && (g[i] == '!' || g[i] == '^') {
		neg, i = true, i+1
	}
	start := i
	if i < len(g) && g[i] == ']' {
		i++ // a leading ] is a member
	}
	for i < len(g) && g[i] != ']' {
		i++
	}
	if i >= len(g) {
		return `\[`, 1
	}
	var b strings.Builder
	b.WriteString("[")
	if neg {
		b.WriteString("^/")
	}
	for _, r := range g[start:i] {
		if r == '\\' || r == '[' || r == ']' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteString("]")
	return b.String(), i + 1
}

// match reports whether the pattern matches a path relative to the
// pattern's directory.
func (p pattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if !p.anchored {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	return p.re.MatchString(rel)
}
