// Package schema derives the input schema of a native tool from its Go
// argument struct (For, in derive.go) and validates tool arguments against
// the subset of JSON Schema that tool input schemas use: type, properties,
// required, additionalProperties, patternProperties, items, prefixItems,
// enum, const, numeric and length bounds, pattern, uniqueItems, anyOf,
// oneOf, allOf, not, if/then/else and $ref to local definitions.
//
// Bridged MCP servers bring schemas tai did not write, so the validator is
// lenient about the schema itself: unknown keywords, keywords of the wrong
// shape, patterns Go cannot compile and references it cannot resolve are
// ignored, never a crash. It is strict about the instance: the first way the
// arguments fail is reported as one line a model can act on.
//
// It is hand-written rather than github.com/google/jsonschema-go (which
// the official Go SDK uses) for two figures (docs/benchmarks.md, "What a
// library costs at start-up"): that library refuses to resolve a schema
// with a pattern Go cannot compile ("(?=x)", common in schemas written for
// JavaScript), a reference it cannot resolve, or a keyword of the wrong
// shape ("required": "a"), so a server's tool with one would go
// unvalidated or refused; and it spends 0.7 ms initialising on every start
// of tai (median of 41, interop/cmd/initcost, 2026-12-04).
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
)

// maxSteps bounds the work of one validation: alternatives that share
// definitions can multiply it beyond any sensible schema.
const maxSteps = 1_000_000

// Schema is a parsed schema, safe for concurrent use.
type Schema struct {
	root     any
	patterns map[string]*regexp.Regexp // nil value: Go cannot compile it
}

// Compile parses a schema document. It fails only when doc is not JSON or
// is neither an object nor a boolean; everything inside is accepted.
func Compile(doc []byte) (*Schema, error) {
	root, err := decode(doc)
	if err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	switch root.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf("schema must be an object or a boolean, got %s", kind(root))
	}
	s := &Schema{root: root, patterns: map[string]*regexp.Regexp{}}
	s.collectPatterns(root)
	return s, nil
}

// Validate checks an instance decoded from JSON with json.Decoder.UseNumber
// (map[string]any, []any, string, json.Number, bool or nil). The error, if
// any, is an *Error.
func (s *Schema) Validate(instance any) error {
	c := &checker{Schema: s}
	e := c.validate(s.root, instance, "")
	if c.steps > maxSteps {
		return c.tooComplex()
	}
	if e != nil {
		return e
	}
	return nil
}

// ValidateJSON decodes data and validates it.
func (s *Schema) ValidateJSON(data []byte) error {
	v, err := decode(data)
	if err != nil {
		return fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	return s.Validate(v)
}

// Error is the first way an instance fails its schema.
type Error struct {
	// Path locates the failing value: "edits[1].old_string"; empty for
	// the whole instance. For a missing property it names the property.
	Path string
	// Msg says what is wrong: "expected string, got number".
	Msg string
	// Missing reports a required property that is absent.
	Missing  bool
	typeOnly []string // the expected types, when Msg is a type mismatch
	plain    bool     // Msg is the whole line
}

func (e *Error) Error() string {
	switch {
	case e.plain:
		return e.Msg
	case e.Missing:
		return fmt.Sprintf("missing required argument %q", e.Path)
	case e.Path == "":
		return "arguments: " + e.Msg
	default:
		return fmt.Sprintf("argument %q: %s", e.Path, e.Msg)
	}
}

func errorf(path, format string, args ...any) *Error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// decode parses one JSON value with numbers kept exact, rejecting trailing
// data.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// kind names a decoded JSON value's type as JSON Schema does.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// collectPatterns compiles every "pattern" and patternProperties key in the
// document once. Walking values that are not schemas (enum members) only
// compiles a few strings needlessly.
func (s *Schema) collectPatterns(v any) {
	switch v := v.(type) {
	case map[string]any:
		if p, ok := v["pattern"].(string); ok {
			s.compilePattern(p)
		}
		if pp, ok := v["patternProperties"].(map[string]any); ok {
			for p := range pp {
				s.compilePattern(p)
			}
		}
		for _, child := range v {
			s.collectPatterns(child)
		}
	case []any:
		for _, child := range v {
			s.collectPatterns(child)
		}
	}
}

func (s *Schema) compilePattern(p string) {
	if _, done := s.patterns[p]; done {
		return
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil // ECMA-only syntax such as lookahead: not checked
	}
	s.patterns[p] = re
}
