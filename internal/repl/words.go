package repl

import (
	"errors"
	"strings"
)

// splitWords splits a slash command's line into words as a shell would:
// blanks separate words, single quotes keep everything, and a backslash
// escapes the next character outside single quotes.
func splitWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\':
			escaped, inWord = true, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, errors.New("unfinished quote or escape in the command")
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
