package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"tai/internal/textsafe"
)

// The typed readers below take a value decoded from JSON (UseNumber) or
// TOML and the path it sits at (mcpServers.fs.args), and fail with one line
// naming the path, what was wanted and what was found.

func wantString(v any, where string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", typeError(where, "a string", v)
	}
	return s, nil
}

func wantBool(v any, where string) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, typeError(where, "true or false", v)
	}
	return b, nil
}

func wantStrings(v any, where string) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		if tables, isTables := v.([]map[string]any); isTables && len(tables) > 0 {
			return nil, typeError(where+"[0]", "a string", tables[0])
		}
		return nil, typeError(where, "a list of strings", v)
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, err := wantString(x, fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func wantObject(v any, where string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(where, "an object", v)
	}
	return m, nil
}

func wantStringMap(v any, where string) (map[string]string, error) {
	m, err := wantObject(v, where)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, err := wantString(m[k], at(where, k))
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

func typeError(where, want string, got any) error {
	msg := fmt.Sprintf("%s: want %s, got %s", where, want, typeName(got))
	if n, ok := got.(json.Number); ok && want == "a string" {
		msg += fmt.Sprintf(`; quote it: "%s"`, n)
	}
	switch got.(type) {
	case int64, float64:
		if want == "a string" {
			msg += fmt.Sprintf(`; quote it: "%v"`, got)
		}
	}
	return errors.New(msg)
}

// at appends a key to a path, quoting a key that is not plain.
func at(where, key string) string {
	plain := key != ""
	for _, r := range key {
		if !isNameChar(r) {
			plain = false
			break
		}
	}
	if plain && len(key) <= 64 {
		return where + "." + key
	}
	return where + "[" + quote(key) + "]"
}

// typeName names a decoded value's kind the way a person would.
func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return fmt.Sprintf("%t", v)
	case json.Number:
		return "the number " + clip(string(v))
	case int64, float64:
		return fmt.Sprintf("the number %v", v)
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v) // TOML dates and times
}

func clip(s string) string { return cut(s, 30) }

// cut shortens s to at most n bytes, on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return textsafe.Head(s, n) + "…"
}

// listKeys names a map's keys for an error, quoted, at most five.
func listKeys(m map[string]any) string {
	keys := slices.Sorted(maps.Keys(m))
	shown := make([]string, 0, 6)
	for i, k := range keys {
		if i == 5 {
			shown = append(shown, fmt.Sprintf("and %d more", len(keys)-5))
			break
		}
		shown = append(shown, quote(k))
	}
	return strings.Join(shown, ", ")
}
