package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

func (c *checker) checkString(m map[string]any, v, path string) *Error {
	n := utf8.RuneCountInString(v)
	if min, ok := bound(m, "minLength"); ok && float64(n) < min {
		return errorf(path, "must be at least %s characters long, got %d", num(min), n)
	}
	if max, ok := bound(m, "maxLength"); ok && float64(n) > max {
		return errorf(path, "must be at most %s characters long, got %d", num(max), n)
	}
	if p, ok := m["pattern"].(string); ok {
		if re := c.patterns[p]; re != nil && !re.MatchString(v) {
			return errorf(path, "must match the pattern %q, got %s", p, brief(v))
		}
	}
	return nil
}

func checkNumber(m map[string]any, v json.Number, path string) *Error {
	x, err := strconv.ParseFloat(v.String(), 64)
	if err != nil {
		return nil // out of float64 range: bounds cannot be compared
	}
	if min, ok := bound(m, "minimum"); ok {
		if m["exclusiveMinimum"] == true && x <= min {
			return errorf(path, "must be greater than %s, got %s", num(min), v)
		}
		if x < min {
			return errorf(path, "must be at least %s, got %s", num(min), v)
		}
	}
	if max, ok := bound(m, "maximum"); ok {
		if m["exclusiveMaximum"] == true && x >= max {
			return errorf(path, "must be less than %s, got %s", num(max), v)
		}
		if x > max {
			return errorf(path, "must be at most %s, got %s", num(max), v)
		}
	}
	if min, ok := bound(m, "exclusiveMinimum"); ok && x <= min {
		return errorf(path, "must be greater than %s, got %s", num(min), v)
	}
	if max, ok := bound(m, "exclusiveMaximum"); ok && x >= max {
		return errorf(path, "must be less than %s, got %s", num(max), v)
	}
	if d, ok := bound(m, "multipleOf"); ok && d > 0 {
		q := x / d
		if math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			return errorf(path, "must be a multiple of %s, got %s", num(d), v)
		}
	}
	return nil
}

func (c *checker) checkArray(m map[string]any, v []any, path string) *Error {
	if min, ok := bound(m, "minItems"); ok && float64(len(v)) < min {
		return errorf(path, "must have at least %s items, got %d", num(min), len(v))
	}
	if max, ok := bound(m, "maxItems"); ok && float64(len(v)) > max {
		return errorf(path, "must have at most %s items, got %d", num(max), len(v))
	}
	// Positional schemas: prefixItems (2020-12), or items as an array
	// (drafts 4-7). items as a schema applies to the items after them.
	prefix, _ := m["prefixItems"].([]any)
	rest := m["items"]
	if tuple, ok := rest.([]any); ok {
		prefix, rest = tuple, m["additionalItems"]
	}
	for i, item := range v {
		sch := rest
		if i < len(prefix) {
			sch = prefix[i]
		}
		if e := c.validate(sch, item, fmt.Sprintf("%s[%d]", path, i)); e != nil {
			return e
		}
	}
	if m["uniqueItems"] == true {
		seen := make(map[string]int, len(v))
		for i, item := range v {
			key := canonical(item)
			if j, dup := seen[key]; dup {
				return errorf(path, "items must be unique; items %d and %d are equal", j, i)
			}
			seen[key] = i
		}
	}
	return nil
}

func (c *checker) checkObject(m map[string]any, v map[string]any, path string) *Error {
	if req, ok := m["required"].([]any); ok {
		for _, name := range req {
			if name, ok := name.(string); ok {
				if _, present := v[name]; !present {
					return &Error{Path: join(path, name), Msg: "missing", Missing: true}
				}
			}
		}
	}
	if min, ok := bound(m, "minProperties"); ok && float64(len(v)) < min {
		return errorf(path, "must have at least %s properties, got %d", num(min), len(v))
	}
	if max, ok := bound(m, "maxProperties"); ok && float64(len(v)) > max {
		return errorf(path, "must have at most %s properties, got %d", num(max), len(v))
	}
	props, _ := m["properties"].(map[string]any)
	patterns, _ := m["patternProperties"].(map[string]any)
	extra, hasExtra := m["additionalProperties"]
	for _, name := range slices.Sorted(maps.Keys(v)) {
		at := join(path, name)
		matched := false
		if sch, ok := props[name]; ok {
			matched = true
			if e := c.validate(sch, v[name], at); e != nil {
				return e
			}
		}
		for p, sch := range patterns {
			if re := c.patterns[p]; re != nil && re.MatchString(name) {
				matched = true
				if e := c.validate(sch, v[name], at); e != nil {
					return e
				}
			}
		}
		if matched || !hasExtra {
			continue
		}
		if extra == false {
			return unknown(path, name, props)
		}
		if e := c.validate(extra, v[name], at); e != nil {
			return e
		}
	}
	return nil
}

// unknown reports a property additionalProperties forbids, naming the
// known ones so the model can correct a misspelling.
func unknown(path, name string, props map[string]any) *Error {
	what := "unknown argument"
	if path != "" {
		what = fmt.Sprintf("argument %q has unknown field", path)
	}
	var known []string
	for i, k := range slices.Sorted(maps.Keys(props)) {
		if i == 30 {
			known = append(known, fmt.Sprintf("… (%d more)", len(props)-i))
			break
		}
		known = append(known, strconv.Quote(k))
	}
	if len(known) == 0 {
		return &Error{Path: path, Msg: fmt.Sprintf("%s %q; none are accepted", what, name), plain: true}
	}
	return &Error{Path: path, Msg: fmt.Sprintf("%s %q; known: %s", what, name, strings.Join(known, ", ")), plain: true}
}

// bound reads a numeric keyword.
func bound(m map[string]any, key string) (float64, bool) {
	n, ok := m[key].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	return f, err == nil
}

// num prints a bound without a needless fraction or exponent.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
