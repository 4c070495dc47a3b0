package schema

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// CheckInput reports whether doc can serve as a tool's input schema: a JSON
// object whose "type", if present, is "object", whose "properties" is an
// object of schemas, whose "required" lists names, and whose local $refs
// resolve. The error says what to fix; tai refuses to offer a tool whose
// schema fails here rather than validate against half a schema.
func CheckInput(doc []byte) error {
	s, err := Compile(doc)
	if err != nil {
		return err
	}
	m, ok := s.root.(map[string]any)
	if !ok {
		return fmt.Errorf("input schema must be an object schema, got %s", kind(s.root))
	}
	if t, ok := m["type"]; ok && !allowsObject(t) {
		return fmt.Errorf("input schema has type %s; tool arguments are an object", brief(t))
	}
	if p, ok := m["properties"]; ok {
		props, ok := p.(map[string]any)
		if !ok {
			return fmt.Errorf("input schema properties must be an object, got %s", kind(p))
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			switch props[name].(type) {
			case map[string]any, bool:
			default:
				return fmt.Errorf("input schema property %q must be a schema object, got %s", name, kind(props[name]))
			}
		}
	}
	if r, ok := m["required"]; ok {
		req, ok := r.([]any)
		if !ok {
			return fmt.Errorf("input schema required must be an array of names, got %s", kind(r))
		}
		for _, name := range req {
			if _, ok := name.(string); !ok {
				return fmt.Errorf("input schema required lists a %s, not a name", kind(name))
			}
		}
	}
	return s.checkRefs(s.root)
}

func allowsObject(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "object"
	case []any:
		for _, n := range t {
			if n == "object" {
				return true
			}
		}
	}
	return false
}

// checkRefs finds a local $ref that does not resolve.
func (s *Schema) checkRefs(v any) error {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			if _, ok := s.resolve(ref); !ok {
				return fmt.Errorf("input schema $ref %q does not resolve", ref)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			switch k {
			case "const", "enum", "default", "examples":
				continue // values, not schemas
			}
			if err := s.checkRefs(v[k]); err != nil {
				return err
			}
		}
	case []any:
		for _, item := range v {
			if err := s.checkRefs(item); err != nil {
				return err
			}
		}
	}
	return nil
}
