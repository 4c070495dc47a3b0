package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// For derives the input schema of a native tool from the Go struct its
// arguments decode into, so a tool's declaration is its struct: each field
// encoding/json decodes is a property, named by its json tag.
//
//   - A struct is an object that admits no other properties; a field is
//     required unless its json tag says omitempty (as the Go MCP SDK's
//     jsonschema.For has it). An embedded struct's fields are the outer
//     object's own, so tools share an argument by embedding it.
//   - string, bool, integers and floats are "string", "boolean", "integer"
//     and "number"; a slice is an array of its element's schema; a map
//     with string keys is an object whose values are its element's schema
//     (map[string]any: any object).
//   - Tags add keywords, each named as in JSON Schema: jsonschema (the
//     description, as in the Go SDK), enum (values separated by commas),
//     pattern, minLength, maxLength, minimum, maximum, minItems, maxItems,
//     maxProperties. On a slice, the keywords of strings and numbers
//     (enum, pattern, minLength, maxLength, minimum, maximum) describe each
//     item, those of arrays the array.
//   - A type with a method JSONSchema() Node (a Typed) states its own
//     schema: values known only at run time, or raw JSON kept as sent. A
//     field's description comes before the type's own.
//
// A tag For does not know, a keyword on a type it does not apply to or a
// Go type with no JSON Schema counterpart is an error: a declaration to fix.
func For(t reflect.Type) (json.RawMessage, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("arguments must be a struct, not %v", t)
	}
	n, err := node(t)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", t, err)
	}
	return json.Marshal(n)
}

// Node is one schema as For derives it: the keywords tool schemas use, in
// the order they are written out.
type Node struct {
	Type                 string          `json:"type,omitempty"`
	Description          string          `json:"description,omitempty"`
	Enum                 []string        `json:"enum,omitempty"`
	Pattern              string          `json:"pattern,omitempty"`
	MinLength            *int            `json:"minLength,omitempty"`
	MaxLength            *int            `json:"maxLength,omitempty"`
	Minimum              *json.Number    `json:"minimum,omitempty"`
	Maximum              *json.Number    `json:"maximum,omitempty"`
	Items                *Node           `json:"items,omitempty"`
	MinItems             *int            `json:"minItems,omitempty"`
	MaxItems             *int            `json:"maxItems,omitempty"`
	Properties           *Properties     `json:"properties,omitempty"`
	Required             []string        `json:"required,omitempty"`
	AdditionalProperties json.RawMessage `json:"additionalProperties,omitempty"`
	MaxProperties        *int            `json:"maxProperties,omitempty"`
}

// Properties are an object's properties in the order of its fields.
type Properties struct {
	Names []string
	Nodes []*Node
}

// MarshalJSON writes the properties as an object, in field order.
func (p *Properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range p.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		v, err := json.Marshal(p.Nodes[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Typed is a Go type that states its own schema.
type Typed interface{ JSONSchema() Node }

var (
	typedType = reflect.TypeFor[Typed]()
	rawType   = reflect.TypeFor[json.RawMessage]()
	closed    = json.RawMessage("false")
)

// node derives the schema of a value of type t, before any field's tags.
func node(t reflect.Type) (*Node, error) {
	if t.Implements(typedType) {
		n := reflect.Zero(t).Interface().(Typed).JSONSchema()
		return &n, nil
	}
	if t == rawType {
		return nil, fmt.Errorf("json.RawMessage has no schema: use a Typed type (tools.RawObject)")
	}
	switch t.Kind() {
	case reflect.Pointer:
		return node(t.Elem())
	case reflect.String:
		return &Node{Type: "string"}, nil
	case reflect.Bool:
		return &Node{Type: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Node{Type: "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return &Node{Type: "number"}, nil
	case reflect.Slice, reflect.Array:
		items, err := node(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Node{Type: "array", Items: items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map keys must be strings, not %v", t.Key())
		}
		if t.Elem().Kind() == reflect.Interface {
			return &Node{Type: "object"}, nil
		}
		values, err := node(t.Elem())
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(values)
		return &Node{Type: "object", AdditionalProperties: raw}, err
	case reflect.Struct:
		return object(t)
	}
	return nil, fmt.Errorf("%v has no JSON Schema type", t)
}

// object derives a struct's closed object schema.
func object(t reflect.Type) (*Node, error) {
	n := &Node{Type: "object", Properties: &Properties{}, AdditionalProperties: closed}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		p, err := field(f)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		n.Properties.Names = append(n.Properties.Names, name)
		n.Properties.Nodes = append(n.Properties.Nodes, p)
		if !hasOption(opts, "omitempty") && !hasOption(opts, "omitzero") {
			n.Required = append(n.Required, name)
		}
	}
	return n, nil
}

func hasOption(opts, want string) bool { return slices.Contains(strings.Split(opts, ","), want) }

// tagged lists the tag keys For reads besides json, in the order applied.
var tagged = []string{"jsonschema", "enum", "pattern", "minLength", "maxLength",
	"minimum", "maximum", "minItems", "maxItems", "maxProperties"}

// field derives one field's schema: its type's, then its tags.
func field(f reflect.StructField) (*Node, error) {
	n, err := node(f.Type)
	if err != nil {
		return nil, err
	}
	if err := checkTags(f.Tag); err != nil {
		return nil, err
	}
	for _, key := range tagged {
		v, ok := f.Tag.Lookup(key)
		if !ok {
			continue
		}
		if err := apply(n, key, v); err != nil {
			return nil, fmt.Errorf("tag %s:%q: %w", key, v, err)
		}
	}
	return n, nil
}

// checkTags refuses a tag key For does not know (a misspelt keyword would
// otherwise be dropped in silence).
func checkTags(tag reflect.StructTag) error {
	rest := string(tag)
	for rest = strings.TrimLeft(rest, " "); rest != ""; rest = strings.TrimLeft(rest, " ") {
		key, after, ok := strings.Cut(rest, ":")
		if !ok {
			return fmt.Errorf("malformed tag %q", tag)
		}
		value, err := strconv.QuotedPrefix(after)
		if err != nil {
			return fmt.Errorf("malformed tag %q", tag)
		}
		rest = after[len(value):]
		if key != "json" && !slices.Contains(tagged, key) {
			return fmt.Errorf("unknown tag %s (For reads json, %s)", key, strings.Join(tagged, ", "))
		}
	}
	return nil
}

// keyword is one tag For reads: the schema type it applies to ("" for
// any) and how it sets its value.
type keyword struct {
	on  string
	set func(n *Node, v string) error
}

var keywords = map[string]keyword{
	"jsonschema":    {"", func(n *Node, v string) error { n.Description = strings.TrimSpace(v + " " + n.Description); return nil }},
	"enum":          {"string", func(n *Node, v string) error { n.Enum = strings.Split(v, ","); return nil }},
	"pattern":       {"string", func(n *Node, v string) error { n.Pattern = v; return nil }},
	"minLength":     {"string", count(func(n *Node) **int { return &n.MinLength })},
	"maxLength":     {"string", count(func(n *Node) **int { return &n.MaxLength })},
	"minimum":       {"number", number(func(n *Node) **json.Number { return &n.Minimum })},
	"maximum":       {"number", number(func(n *Node) **json.Number { return &n.Maximum })},
	"minItems":      {"array", count(func(n *Node) **int { return &n.MinItems })},
	"maxItems":      {"array", count(func(n *Node) **int { return &n.MaxItems })},
	"maxProperties": {"object", count(func(n *Node) **int { return &n.MaxProperties })},
}

// apply sets keyword key to v on n, or on n's items for a string or number
// keyword on an array.
func apply(n *Node, key, v string) error {
	k := keywords[key]
	target := n
	if n.Type == "array" && (k.on == "string" || k.on == "number") {
		target = n.Items
	}
	if k.on != "" && target.Type != k.on && !(k.on == "number" && target.Type == "integer") {
		return fmt.Errorf("applies to type %s, not %s", k.on, target.Type)
	}
	return k.set(target, v)
}

// count sets the count field of a Node that field returns.
func count(field func(*Node) **int) func(n *Node, v string) error {
	return func(n *Node, v string) error {
		c, err := strconv.Atoi(v)
		if err != nil || c < 0 {
			return fmt.Errorf("not a count")
		}
		*field(n) = &c
		return nil
	}
}

// number sets the number field of a Node that field returns.
func number(field func(*Node) **json.Number) func(n *Node, v string) error {
	return func(n *Node, v string) error {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return fmt.Errorf("not a number")
		}
		x := json.Number(v)
		*field(n) = &x
		return nil
	}
}
