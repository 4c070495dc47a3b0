package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// A fast path for the two objects every call decodes (the message and the
// tools/call params): one pass over the top-level fields of input already
// known to be valid JSON, instead of encoding/json's reflection. Anything
// unusual (escapes in keys or in the method, a repeated key, a key that
// differs from a known one only in case, which encoding/json would match)
// makes the caller take encoding/json's path, so both paths agree on every
// input.

// fields calls fn with each key and raw value of the JSON object data,
// which must be valid JSON. It reports false when data is not an object,
// a key holds an escape, or fn returns false.
func fields(data []byte, fn func(key, value []byte) bool) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return true
	}
	for i < len(data) && data[i] == '"' {
		end, escaped := scanString(data, i)
		if escaped {
			return false
		}
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		vend := skipValue(data, i)
		if vend <= i || !fn(key, data[i:vend]) {
			return false
		}
		i = skipSpace(data, vend)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(data, i+1)
		default:
			return false
		}
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index after the string starting at data[i] and
// whether it holds an escape.
func scanString(data []byte, i int) (end int, escaped bool) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return len(data), escaped
}

// skipValue returns the index after the value starting at data[i].
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		end, _ := scanString(data, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, _ := scanString(data, j)
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}

// plainString returns the text of a JSON string without escapes, in
// valid UTF-8 (encoding/json would replace invalid bytes).
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// foldsTo reports whether key differs from one of names only in case.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if strings.EqualFold(string(key), n) {
			return true
		}
	}
	return false
}

// decodeFrame is the fast path of Decode; false sends the caller to
// encoding/json.
func decodeFrame(data []byte) (f frame, ok bool) {
	if !json.Valid(data) {
		return f, false
	}
	var seen uint8
	once := func(bit uint8) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	ok = fields(data, func(k, v []byte) bool {
		switch string(k) {
		case "jsonrpc":
			s, ok := plainString(v)
			f.JSONRPC = s
			return ok && once(1)
		case "id":
			return f.ID.UnmarshalJSON(v) == nil && once(2)
		case "method":
			s, ok := plainString(v)
			f.Method = methodName(s)
			return ok && once(4)
		case "params":
			f.Params = append(json.RawMessage(nil), v...)
			return once(8)
		case "result":
			f.Result = append(json.RawMessage(nil), v...)
			return once(16)
		case "error":
			if string(v) != "null" {
				f.Error = new(Error)
				if json.Unmarshal(v, f.Error) != nil {
					return false
				}
			}
			return once(32)
		}
		return !foldsTo(k, "jsonrpc", "id", "method", "params", "result", "error")
	})
	return f, ok
}

// methodName returns the method names tai knows without a copy.
func methodName(s string) string {
	for _, m := range Methods {
		if m.Name == s {
			return m.Name
		}
	}
	return s
}

// UnmarshalJSON reads the name and the arguments, untouched, on a fast
// path for the usual shapes.
func (p *CallToolParams) UnmarshalJSON(b []byte) error {
	var q CallToolParams
	var seen uint8
	ok := fields(b, func(k, v []byte) bool {
		switch string(k) {
		case "name":
			s, ok := plainString(v)
			q.Name = s
			ok = ok && seen&1 == 0
			seen |= 1
			return ok
		case "arguments":
			if string(v) != "null" {
				q.Arguments = append(json.RawMessage(nil), v...)
			}
			ok := seen&2 == 0
			seen |= 2
			return ok
		}
		return !foldsTo(k, "name", "arguments")
	})
	if ok {
		*p = q
		return nil
	}
	type plain CallToolParams
	return json.Unmarshal(b, (*plain)(p))
}
