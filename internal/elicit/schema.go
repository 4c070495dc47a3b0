package elicit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"

	"tai/internal/mcp/wire"
)

// Kind is the type of a form field.
type Kind string

// The kinds of the specification's restricted schema.
const (
	String  Kind = "string"
	Number  Kind = "number"
	Integer Kind = "integer"
	Boolean Kind = "boolean"
	// Choice is a single-select enum (enum, oneOf of consts, enumNames);
	// Choices a multi-select one (an array of enum items).
	Choice  Kind = "choice"
	Choices Kind = "choices"
)

// Option is one value of an enum, with the title shown for it ("" when it
// has none: the value is shown).
type Option struct {
	Value string
	Title string
}

// Field is one property of a form.
type Field struct {
	Name        string
	Title       string
	Description string
	Kind        Kind
	Required    bool
	// Default is the server's default (SEP-1034), already checked against
	// the field; HasDefault tells an absent one from a zero value.
	Default    any
	HasDefault bool
	// String limits: lengths in characters, a pattern, a format (email,
	// uri, date, date-time).
	MinLength, MaxLength *int
	Pattern              *regexp.Regexp
	Format               string
	// Number and integer bounds, inclusive.
	Minimum, Maximum *float64
	// Options of a Choice or Choices field; MinItems and MaxItems bound
	// how many a Choices answer picks.
	Options            []Option
	MinItems, MaxItems *int
	// Secret is set when the field's name, title or description suggests
	// a credential: the person is warned, and the answer is redacted.
	Secret bool
}

// property is a property of the requested schema as sent; any key not
// here is refused, so nothing the server meant goes unseen.
type property struct {
	Type        string            `json:"type"`
	Title       *string           `json:"title"`
	Description *string           `json:"description"`
	Default     json.RawMessage   `json:"default"`
	MinLength   *int              `json:"minLength"`
	MaxLength   *int              `json:"maxLength"`
	Pattern     *string           `json:"pattern"`
	Format      string            `json:"format"`
	Minimum     *float64          `json:"minimum"`
	Maximum     *float64          `json:"maximum"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []constOption     `json:"oneOf"`
	Items       *items            `json:"items"`
	MinItems    *int              `json:"minItems"`
	MaxItems    *int              `json:"maxItems"`
}

type items struct {
	Type  string        `json:"type"`
	Enum  []string      `json:"enum"`
	AnyOf []constOption `json:"anyOf"`
}

type constOption struct {
	Const *string `json:"const"`
	Title *string `json:"title"`
}

// formats are the string formats the specification lists.
var formats = map[string]bool{"": true, "email": true, "uri": true, "date": true, "date-time": true}

// parseSchema reads requestedSchema: an object whose properties are all
// primitive, within wire.ElicitMaxFields.
func parseSchema(raw json.RawMessage) ([]Field, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, refused("a form without a requestedSchema")
	}
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&s); err != nil {
		return nil, refused("the requestedSchema is not a schema object: %s", wire.Printable(err.Error(), 120))
	}
	if s.Type != "object" {
		return nil, refused("the requestedSchema is of type %q; a form is an object", wire.Printable(s.Type, 40))
	}
	if len(s.Properties) > wire.ElicitMaxFields {
		return nil, refused("the form has %d fields, over MCP_ELICIT_MAX_FIELDS (%d)", len(s.Properties), wire.ElicitMaxFields)
	}
	names, err := propertyOrder(raw)
	if err != nil {
		return nil, err
	}
	required := map[string]bool{}
	for _, n := range s.Required {
		if _, ok := s.Properties[n]; !ok {
			return nil, refused("required field %q is not among the properties", wire.Printable(n, 64))
		}
		required[n] = true
	}
	fields := make([]Field, 0, len(names))
	for _, n := range names {
		f, err := parseField(n, s.Properties[n])
		if err != nil {
			return nil, refused("field %q: %s", wire.Printable(n, 64), err)
		}
		f.Required = required[n]
		fields = append(fields, f)
	}
	return fields, nil
}

// propertyOrder lists the properties in the order the server wrote them:
// a form asks its fields in that order.
func propertyOrder(raw json.RawMessage) ([]string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, refused("the requestedSchema is not an object")
	}
	props := top["properties"]
	if len(props) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(props))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, refused("the requestedSchema's properties are not an object")
	}
	var names []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, refused("the requestedSchema's properties do not parse")
		}
		name := t.(string)
		if seen[name] {
			return nil, refused("field %q is listed twice", wire.Printable(name, 64))
		}
		seen[name] = true
		names = append(names, name)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, refused("the requestedSchema's properties do not parse")
		}
	}
	return names, nil
}

// parseField reads one property; the error is the reason alone.
func parseField(name string, raw json.RawMessage) (Field, error) {
	var p property
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Field{}, fmt.Errorf("not a primitive property tai can ask: %s", wire.Printable(err.Error(), 120))
	}
	f := Field{Name: name, MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum,
		MinItems: p.MinItems, MaxItems: p.MaxItems}
	if p.Title != nil {
		f.Title = *p.Title
	}
	if p.Description != nil {
		f.Description = *p.Description
	}
	if err := f.kindOf(p); err != nil {
		return Field{}, err
	}
	if err := f.limits(p); err != nil {
		return Field{}, err
	}
	if len(p.Default) > 0 {
		var v any
		if err := json.Unmarshal(p.Default, &v); err != nil {
			return Field{}, fmt.Errorf("its default does not parse")
		}
		v = normalize(v)
		if err := f.Check(v); err != nil {
			return Field{}, fmt.Errorf("its default is invalid: %w", err)
		}
		f.Default, f.HasDefault = v, true
	}
	f.Secret = looksSecret(name, f.Title, f.Description)
	return f, nil
}

// kindOf sets the field's kind and options from the property's type.
func (f *Field) kindOf(p property) error {
	switch {
	case p.Type == "string" && len(p.OneOf) > 0:
		if len(p.Enum) > 0 {
			return fmt.Errorf("both enum and oneOf")
		}
		opts, err := constOptions(p.OneOf)
		f.Kind, f.Options = Choice, opts
		return err
	case p.Type == "string" && len(p.Enum) > 0:
		if len(p.EnumNames) > 0 && len(p.EnumNames) != len(p.Enum) {
			return fmt.Errorf("%d enumNames for %d enum values", len(p.EnumNames), len(p.Enum))
		}
		for i, e := range p.Enum {
			var v string
			if err := json.Unmarshal(e, &v); err != nil {
				return fmt.Errorf("enum value %s is not a string", wire.Printable(string(e), 40))
			}
			o := Option{Value: v}
			if len(p.EnumNames) > 0 {
				o.Title = p.EnumNames[i]
			}
			f.Options = append(f.Options, o)
		}
		f.Kind = Choice
		return uniqueOptions(f.Options)
	case p.Type == "array":
		if p.Items == nil {
			return fmt.Errorf("an array without items")
		}
		f.Kind = Choices
		switch {
		case len(p.Items.AnyOf) > 0 && len(p.Items.Enum) == 0 && p.Items.Type == "":
			opts, err := constOptions(p.Items.AnyOf)
			f.Options = opts
			return err
		case len(p.Items.Enum) > 0 && len(p.Items.AnyOf) == 0 && p.Items.Type == "string":
			for _, v := range p.Items.Enum {
				f.Options = append(f.Options, Option{Value: v})
			}
			return uniqueOptions(f.Options)
		}
		return fmt.Errorf("an array that is not a multi-select of string enums")
	case p.Type == "string", p.Type == "number", p.Type == "integer", p.Type == "boolean":
		f.Kind = Kind(p.Type)
		if len(p.EnumNames) > 0 || p.Items != nil {
			return fmt.Errorf("enumNames or items on a %s", p.Type)
		}
		return nil
	}
	return fmt.Errorf("type %q is not one a form can ask (string, number, integer, boolean, or an array of enum strings)", wire.Printable(p.Type, 40))
}

func constOptions(cs []constOption) ([]Option, error) {
	opts := make([]Option, 0, len(cs))
	for _, c := range cs {
		if c.Const == nil {
			return nil, fmt.Errorf("an option without a const")
		}
		o := Option{Value: *c.Const}
		if c.Title != nil {
			o.Title = *c.Title
		}
		opts = append(opts, o)
	}
	return opts, uniqueOptions(opts)
}

func uniqueOptions(opts []Option) error {
	seen := map[string]bool{}
	for _, o := range opts {
		if seen[o.Value] {
			return fmt.Errorf("option %q is listed twice", wire.Printable(o.Value, 40))
		}
		seen[o.Value] = true
	}
	return nil
}

// limits checks that the property's constraints belong to its kind and
// make sense.
func (f *Field) limits(p property) error {
	text := f.Kind == String
	numeric := f.Kind == Number || f.Kind == Integer
	switch {
	case !text && (p.MinLength != nil || p.MaxLength != nil || p.Pattern != nil || p.Format != ""):
		return fmt.Errorf("minLength, maxLength, pattern or format on a %s", f.Kind)
	case !numeric && (p.Minimum != nil || p.Maximum != nil):
		return fmt.Errorf("minimum or maximum on a %s", f.Kind)
	case f.Kind != Choices && (p.MinItems != nil || p.MaxItems != nil):
		return fmt.Errorf("minItems or maxItems on a %s", f.Kind)
	case !formats[p.Format]:
		return fmt.Errorf("format %q is not one tai checks (email, uri, date, date-time)", wire.Printable(p.Format, 40))
	case negative(p.MinLength, p.MaxLength, p.MinItems, p.MaxItems):
		return fmt.Errorf("a negative length or count")
	case p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength,
		p.MinItems != nil && p.MaxItems != nil && *p.MinItems > *p.MaxItems,
		p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum:
		return fmt.Errorf("its lower bound is above its upper bound")
	}
	if p.Pattern != nil {
		// Go's regexp runs in linear time, so no pattern can hang tai; one
		// it cannot compile (ECMAScript's lookarounds) is refused.
		re, err := regexp.Compile(*p.Pattern)
		if err != nil {
			return fmt.Errorf("pattern %q is not one tai can check", wire.Printable(*p.Pattern, 60))
		}
		f.Pattern = re
	}
	f.Format = p.Format
	return nil
}

func negative(ns ...*int) bool {
	for _, n := range ns {
		if n != nil && *n < 0 {
			return true
		}
	}
	return false
}

// normalize makes a decoded JSON value the Go type a field holds: a list
// of strings for a multi-select.
func normalize(v any) any {
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, x := range list {
			s, ok := x.(string)
			if !ok {
				return v
			}
			out = append(out, s)
		}
		return out
	}
	return v
}

// sortedValues lists a Choices answer in the options' order.
func (f Field) sortedValues(picked map[string]bool) []string {
	out := []string{}
	for _, o := range f.Options {
		if picked[o.Value] {
			out = append(out, o.Value)
		}
	}
	return out
}

// isInteger reports whether x is a whole number JSON can carry exactly.
func isInteger(x float64) bool {
	return x == math.Trunc(x) && math.Abs(x) <= 1<<53
}
