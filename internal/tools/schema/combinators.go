package schema

import (
	"encoding/json"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// checkCombinators applies allOf, anyOf, oneOf, not and if/then/else.
func (c *checker) checkCombinators(m map[string]any, v any, path string) *Error {
	if all, ok := m["allOf"].([]any); ok {
		for _, sch := range all {
			if e := c.validate(sch, v, path); e != nil {
				return e
			}
		}
	}
	if alts, ok := m["anyOf"].([]any); ok && len(alts) > 0 {
		if passed, errs := c.branches(alts, v, path); passed == 0 {
			return closest(path, errs)
		}
	}
	if one, ok := m["oneOf"].([]any); ok && len(one) > 0 {
		passed, errs := c.branches(one, v, path)
		if passed == 0 {
			return closest(path, errs)
		}
		if passed > 1 {
			return errorf(path, "matches %d of the alternative forms; exactly one is allowed", passed)
		}
	}
	if not, ok := m["not"]; ok && c.validate(not, v, path) == nil {
		return errorf(path, "must not match the excluded form, got %s", brief(v))
	}
	if cond, ok := m["if"]; ok {
		branch := "else"
		if c.validate(cond, v, path) == nil {
			branch = "then"
		}
		if sch, ok := m[branch]; ok {
			return c.validate(sch, v, path)
		}
	}
	return nil
}

// branches validates v against each alternative, counting the passes and
// keeping the failures.
func (c *checker) branches(alts []any, v any, path string) (int, []*Error) {
	passed := 0
	var errs []*Error
	for _, sch := range alts {
		if e := c.validate(sch, v, path); e != nil {
			errs = append(errs, e)
		} else {
			passed++
		}
	}
	return passed, errs
}

// closest explains why no alternative matched. When every alternative
// wanted another type, it lists them ("expected string or null"); otherwise
// it reports the failure that got deepest into the value, the alternative
// the caller most likely meant.
func closest(path string, errs []*Error) *Error {
	var types []string
	for _, e := range errs {
		if e.typeOnly == nil || e.Path != path {
			types = nil
			break
		}
		for _, t := range e.typeOnly {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	if types != nil {
		msg := errs[0].Msg
		got := msg[strings.LastIndex(msg, ", got ")+len(", got "):]
		e := errorf(path, "expected %s, got %s", strings.Join(types, " or "), got)
		e.typeOnly = types
		return e
	}
	best := errs[0]
	for _, e := range errs[1:] {
		if len(e.Path) > len(best.Path) {
			best = e
		}
	}
	return best
}

// resolve follows a local reference: "#", or a JSON Pointer such as
// "#/$defs/edit". Remote references and anchors are not followed.
func (s *Schema) resolve(ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, false
	}
	if ptr == "" {
		return s.root, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := s.root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// isInteger reports whether n has no fractional part; 1.0 is an integer.
func isInteger(n json.Number) bool {
	if _, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return true
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	return err == nil && f == math.Trunc(f)
}

// equal compares decoded JSON values; numbers compare by value.
func equal(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == b {
			return true
		}
		x, err1 := strconv.ParseFloat(a.String(), 64)
		y, err2 := strconv.ParseFloat(b.String(), 64)
		return err1 == nil && err2 == nil && x == y
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// canonical encodes v so that equal values encode alike (for uniqueItems).
func canonical(v any) string {
	switch v := v.(type) {
	case json.Number:
		if f, err := strconv.ParseFloat(v.String(), 64); err == nil {
			return "n" + strconv.FormatFloat(f, 'g', -1, 64)
		}
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = canonical(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		var b strings.Builder
		b.WriteString("{")
		for _, k := range slices.Sorted(maps.Keys(v)) {
			b.WriteString(strconv.Quote(k) + ":" + canonical(v[k]) + ",")
		}
		return b.String() + "}"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
