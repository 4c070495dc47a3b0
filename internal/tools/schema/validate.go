package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// checker is one validation run.
type checker struct {
	*Schema
	steps  int
	active map[[2]string]bool // $ref and instance path being checked
}

// tooComplex is the error of a run that exceeded maxSteps. It replaces
// whatever the run found, which an alternative may have hidden.
func (c *checker) tooComplex() *Error {
	return &Error{Msg: fmt.Sprintf("arguments cannot be checked: the schema is too complex (over %d steps)", maxSteps), plain: true}
}

// validate applies the keywords of sch to v, located at path.
func (c *checker) validate(sch, v any, path string) *Error {
	if c.steps++; c.steps > maxSteps {
		return c.tooComplex()
	}
	m, ok := sch.(map[string]any)
	if !ok {
		if b, isBool := sch.(bool); isBool && !b {
			return errorf(path, "no value is allowed here")
		}
		return nil // true, or not a schema at all: nothing to check
	}
	if ref, ok := m["$ref"].(string); ok {
		if e := c.follow(ref, v, path); e != nil {
			return e
		}
	}
	if e := c.checkType(m, v, path); e != nil {
		return e
	}
	if e := c.checkValue(m, v, path); e != nil {
		return e
	}
	var e *Error
	switch v := v.(type) {
	case string:
		e = c.checkString(m, v, path)
	case json.Number:
		e = checkNumber(m, v, path)
	case []any:
		e = c.checkArray(m, v, path)
	case map[string]any:
		e = c.checkObject(m, v, path)
	}
	if e != nil {
		return e
	}
	return c.checkCombinators(m, v, path)
}

// follow validates v against a $ref's target. Re-entering a reference at
// the same place in the instance is a cycle that can add nothing, so it
// passes; remote references are not followed.
func (c *checker) follow(ref string, v any, path string) *Error {
	target, ok := c.resolve(ref)
	key := [2]string{ref, path}
	if !ok || c.active[key] {
		return nil
	}
	if c.active == nil {
		c.active = map[[2]string]bool{}
	}
	c.active[key] = true
	defer delete(c.active, key)
	return c.validate(target, v, path)
}

// checkType applies "type" (a name or a list of names) and OpenAPI's
// "nullable". Names it does not know are ignored.
func (c *checker) checkType(m map[string]any, v any, path string) *Error {
	var names []string
	switch t := m["type"].(type) {
	case string:
		names = []string{t}
	case []any:
		for _, n := range t {
			if n, ok := n.(string); ok {
				names = append(names, n)
			}
		}
	default:
		return nil
	}
	if v == nil && m["nullable"] == true {
		return nil
	}
	var known []string
	for _, n := range names {
		match, isKnown := hasType(n, v)
		if match {
			return nil
		}
		if isKnown {
			known = append(known, n)
		}
	}
	if len(known) == 0 {
		return nil
	}
	names = known
	got := kind(v)
	if n, ok := v.(json.Number); ok && slices.Contains(names, "integer") {
		got = "number " + n.String() // "expected integer, got number 1.5"
	}
	e := errorf(path, "expected %s, got %s", strings.Join(names, " or "), got)
	e.typeOnly = names
	return e
}

// hasType reports whether v is of the named type, and whether the name is
// one JSON Schema defines.
func hasType(name string, v any) (match, known bool) {
	switch name {
	case "integer":
		n, ok := v.(json.Number)
		return ok && isInteger(n), true
	case "number":
		_, ok := v.(json.Number)
		return ok, true
	case "null", "boolean", "string", "array", "object":
		return kind(v) == name, true
	}
	return false, false
}

// checkValue applies "enum" and "const".
func (c *checker) checkValue(m map[string]any, v any, path string) *Error {
	if c, ok := m["const"]; ok && !equal(c, v) {
		return errorf(path, "must be %s, got %s", brief(c), brief(v))
	}
	enum, ok := m["enum"].([]any)
	if !ok {
		return nil
	}
	for _, allowed := range enum {
		if equal(allowed, v) {
			return nil
		}
	}
	const shown = 12
	var names []string
	for i, allowed := range enum {
		if i == shown {
			names = append(names, fmt.Sprintf("… (%d more)", len(enum)-shown))
			break
		}
		names = append(names, brief(allowed))
	}
	return errorf(path, "must be one of %s; got %s", strings.Join(names, ", "), brief(v))
}

// brief renders a value for an error message, cut to a readable length.
func brief(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return kind(v)
	}
	const max = 60
	if r := []rune(string(b)); len(r) > max {
		return string(r[:max]) + "…"
	}
	return string(b)
}
