package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// decodeJSON reads one JSON object, accepting what VS Code and Gemini CLI
// accept in their own files: // and /* */ comments and trailing commas.
// shift is how many bytes were added before the paste (a fragment gets a
// brace), so that error positions point into what the person pasted.
func decodeJSON(text string, shift int) (map[string]any, error) {
	clean := stripJSONC(text)
	dec := json.NewDecoder(strings.NewReader(clean))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(clean, err, shift)
	}
	offset := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(clean, afterSpace(clean, int(offset)), shift)
		return nil, fmt.Errorf("invalid JSON at line %d, column %d: text after the end of the object; paste one JSON object", line, col)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %s: paste an object with mcpServers or servers", typeName(v))
	}
	return m, nil
}

func jsonError(text string, err error, shift int) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		line, col := position(text, int(syn.Offset)-1, shift)
		return fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, syn)
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(text, len(text), shift)
		return fmt.Errorf("invalid JSON at line %d, column %d: the text ends inside a value; is a closing brace missing?", line, col)
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// position turns a byte offset into a 1-based line and column (in bytes).
func position(text string, off, shift int) (line, col int) {
	off = max(0, min(off, len(text)))
	line = 1 + strings.Count(text[:off], "\n")
	col = off - strings.LastIndexByte(text[:off], '\n')
	if line == 1 {
		col = max(1, col-shift)
	}
	return line, col
}

// afterSpace skips the whitespace at s[i:].
func afterSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
		i++
	}
	return i
}

// stripJSONC blanks comments and trailing commas with spaces, keeping every
// newline, so offsets in the result are offsets in the input.
func stripJSONC(s string) string {
	if !strings.Contains(s, "/") && !strings.Contains(s, ",") {
		return s
	}
	b := []byte(s)
	lastComma := -1 // a comma seen since the last significant byte
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			i = skipString(b, i)
			lastComma = -1
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			stop := len(b)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			i--
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				b[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return string(b)
}

// skipString returns the index of the quote closing the string opened at i.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(b)
}
