package config

import "fmt"

// The TOML parser slows down faster than linearly on deep nesting and on
// long dotted keys, so a 1 MiB paste of either could hold tai for minutes.
// No config comes near these limits.
const (
	maxTOMLDepth = 32 // nested [ and {
	maxTOMLDots  = 64 // dots outside strings on one line
)

// checkTOMLShape refuses TOML beyond those limits before it is parsed. It
// skips comments and strings of every TOML kind, so what it counts is
// structure.
func checkTOMLShape(text string) error {
	depth, dots, line := 0, 0, 1
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\n':
			dots = 0
			line++
		case '#':
			for i+1 < len(text) && text[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			end := skipTOMLString(text, i)
			for _, b := range []byte(text[i:end]) {
				if b == '\n' {
					line++
				}
			}
			i = end - 1
		case '[', '{':
			if depth++; depth > maxTOMLDepth {
				return fmt.Errorf("TOML nests deeper than %d levels at line %d: paste the [mcp_servers.…] part of the config", maxTOMLDepth, line)
			}
		case ']', '}':
			depth = max(0, depth-1)
		case '.':
			if dots++; dots > maxTOMLDots {
				return fmt.Errorf("TOML line %d has more than %d dotted parts: paste the [mcp_servers.…] part of the config", line, maxTOMLDots)
			}
		}
	}
	return nil
}

// skipTOMLString returns the index just past the string opening at i:
// "basic" with escapes, 'literal' without, and the multi-line form of each,
// opened by three quotes. An unterminated string runs to the end.
func skipTOMLString(text string, i int) int {
	q := text[i]
	delim := string(q)
	if len(text) >= i+3 && text[i+1] == q && text[i+2] == q {
		delim = text[i : i+3]
	}
	for j := i + len(delim); j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case len(delim) == 1 && text[j] == '\n':
			return j // a one-line string cannot span lines; let the parser say so
		case len(text)-j >= len(delim) && text[j:j+len(delim)] == delim:
			end := j + len(delim)
			for end < len(text) && text[end] == q && end-j < len(delim)+2 {
				end++ // """a"""" ends with the last quote
			}
			return end
		}
	}
	return len(text)
}
