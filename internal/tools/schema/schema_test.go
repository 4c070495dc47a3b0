package schema

import (
	"strconv"
	"strings"
	"testing"
)

// editSchema is shaped like a native tool's input schema.
const editSchema = `{
	"type": "object",
	"properties": {
		"path": {"type": "string", "minLength": 1},
		"old_string": {"type": "string"},
		"count": {"type": "integer", "minimum": 1, "maximum": 10},
		"mode": {"enum": ["a", "b"]},
		"edits": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/edit"}}
	},
	"required": ["path", "old_string"],
	"additionalProperties": false,
	"$defs": {"edit": {"type": "object", "properties": {"new_string": {"type": "string"}}, "required": ["new_string"]}}
}`

func TestValidate_EditSchema(t *testing.T) {
	tests := []struct {
		args string
		want string // "" means valid
	}{
		{`{"path":"a","old_string":"x"}`, ""},
		{`{"path":"a","old_string":"x","count":3,"mode":"b","edits":[{"new_string":""}]}`, ""},
		{`{"path":"a","old_string":"x","count":3.0}`, ""},
		{`{"path":5,"old_string":"x"}`, `argument "path": expected string, got number`},
		{`{"path":"a"}`, `missing required argument "old_string"`},
		{`{"path":"","old_string":"x"}`, `argument "path": must be at least 1 characters long, got 0`},
		{`{"path":"a","old_string":"x","count":1.5}`, `argument "count": expected integer, got number 1.5`},
		{`{"path":"a","old_string":"x","count":0}`, `argument "count": must be at least 1, got 0`},
		{`{"path":"a","old_string":"x","count":11}`, `argument "count": must be at most 10, got 11`},
		{`{"path":"a","old_string":"x","mode":"c"}`, `argument "mode": must be one of "a", "b"; got "c"`},
		{`{"path":"a","old_string":"x","edits":[]}`, `argument "edits": must have at least 1 items, got 0`},
		{`{"path":"a","old_string":"x","edits":[{}]}`, `missing required argument "edits[0].new_string"`},
		{`{"path":"a","old_string":"x","edits":[{"new_string":""},{"new_string":1}]}`, `argument "edits[1].new_string": expected string, got number`},
		{`{"path":"a","old_string":"x","pth":"b"}`, `unknown argument "pth"; known: "count", "edits", "mode", "old_string", "path"`},
		{`[1]`, `arguments: expected object, got array`},
		{`null`, `arguments: expected object, got null`},
	}
	s, err := Compile([]byte(editSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got := errText(s.ValidateJSON([]byte(tt.args)))
		if got != tt.want {
			t.Errorf("%s\n got: %s\nwant: %s", tt.args, got, tt.want)
		}
	}
}

func TestValidate_Keywords(t *testing.T) {
	tests := []struct {
		name, schema, instance, want string
	}{
		{"type list", `{"type":["string","null"]}`, `null`, ""},
		{"type list fails", `{"type":["string","null"]}`, `1`, `arguments: expected string or null, got number`},
		{"unknown type name ignored", `{"type":"strng"}`, `1`, ""},
		{"nullable", `{"type":"string","nullable":true}`, `null`, ""},
		{"false schema", `{"properties":{"x":false}}`, `{"x":1}`, `argument "x": no value is allowed here`},
		{"additionalProperties schema", `{"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":"2"}`, `argument "b": expected integer, got string`},
		{"additionalProperties false, none known", `{"additionalProperties":false}`, `{"a":1}`, `unknown argument "a"; none are accepted`},
		{"nested unknown", `{"properties":{"o":{"additionalProperties":false,"properties":{"k":{}}}}}`, `{"o":{"z":1}}`, `argument "o" has unknown field "z"; known: "k"`},
		{"patternProperties exempt", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"x-a":"s"}`, ""},
		{"patternProperties checked", `{"patternProperties":{"^x-":{"type":"string"}}}`, `{"x-a":1}`, `argument "x-a": expected string, got number`},
		{"tuple items", `{"items":[{"type":"string"},{"type":"integer"}]}`, `["a","b"]`, `argument "[1]": expected integer, got string`},
		{"prefixItems then items", `{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`, `["a",1,"c"]`, `argument "[2]": expected integer, got string`},
		{"maxItems", `{"maxItems":1}`, `[1,2]`, `arguments: must have at most 1 items, got 2`},
		{"uniqueItems", `{"uniqueItems":true}`, `[1,{"a":[2]},1.0]`, `arguments: items must be unique; items 0 and 2 are equal`},
		{"const", `{"const":{"a":1}}`, `{"a":1.0}`, ""},
		{"const fails", `{"const":"x"}`, `"y"`, `arguments: must be "x", got "y"`},
		{"maxLength counts characters", `{"maxLength":2}`, `"éé"`, ""},
		{"pattern", `{"pattern":"^[a-z]+$"}`, `"ab1"`, `arguments: must match the pattern "^[a-z]+$", got "ab1"`},
		{"pattern Go cannot compile is ignored", `{"pattern":"^(?!x)"}`, `"x"`, ""},
		{"exclusiveMinimum number", `{"exclusiveMinimum":0}`, `0`, `arguments: must be greater than 0, got 0`},
		{"exclusiveMaximum draft 4", `{"maximum":5,"exclusiveMaximum":true}`, `5`, `arguments: must be less than 5, got 5`},
		{"multipleOf", `{"multipleOf":0.1}`, `0.3`, ""},
		{"multipleOf fails", `{"multipleOf":2}`, `3`, `arguments: must be a multiple of 2, got 3`},
		{"anyOf types merged", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`, `arguments: expected string or integer, got boolean`},
		{"anyOf deepest failure", `{"anyOf":[{"type":"string"},{"type":"object","required":["k"]}]}`, `{}`, `missing required argument "k"`},
		{"oneOf two match", `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `1`, `arguments: matches 2 of the alternative forms; exactly one is allowed`},
		{"allOf", `{"allOf":[{"type":"integer"},{"minimum":3}]}`, `2`, `arguments: must be at least 3, got 2`},
		{"not", `{"not":{"type":"string"}}`, `"s"`, `arguments: must not match the excluded form, got "s"`},
		{"if then", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`, `{"k":"a"}`, `missing required argument "a"`},
		{"if else", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`, `{"k":"z"}`, `missing required argument "b"`},
		{"definitions ref", `{"definitions":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"#/definitions/n"}}}`, `{"x":"1"}`, `argument "x": expected integer, got string`},
		{"escaped pointer", `{"$defs":{"a/b":{"type":"integer"}},"$ref":"#/$defs/a~1b"}`, `"s"`, `arguments: expected integer, got string`},
		{"recursive ref", `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}},"n":{"type":"integer"}}}`, `{"kids":[{"kids":[{"n":"x"}]}]}`, `argument "kids[0].kids[0].n": expected integer, got string`},
		{"ref cycle passes", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, `1`, ""},
		{"remote ref ignored", `{"$ref":"https://example.com/s.json"}`, `1`, ""},
		{"dangling ref ignored", `{"$ref":"#/$defs/none"}`, `1`, ""},
		{"wrong-shaped keywords ignored", `{"required":"x","properties":5,"minimum":"3","items":7,"enum":{}}`, `{}`, ""},
		{"unknown keywords ignored", `{"x-custom":{"type":"string"},"format":"uuid","default":3}`, `7`, ""},
		{"boolean true schema", `true`, `{"a":[1]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if got := errText(s.ValidateJSON([]byte(tt.instance))); got != tt.want {
				t.Errorf("got:  %s\nwant: %s", got, tt.want)
			}
		})
	}
}

func TestValidate_ExponentialAlternativesAreBounded(t *testing.T) {
	// Each level refers twice to the next: 2^40 paths without the step cap.
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	for i := 0; i < 40; i++ {
		b.WriteString(`"d` + strconv.Itoa(i) + `":{"anyOf":[{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"},{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"}]},`)
	}
	b.WriteString(`"d40":{"type":"string"}}}`)
	s, err := Compile([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	err = s.ValidateJSON([]byte(`1`))
	if got := errText(err); !strings.Contains(got, "too complex") {
		t.Fatalf("got %q, want the step cap", got)
	}
}

func TestValidateJSON_BadJSON(t *testing.T) {
	s, _ := Compile([]byte(`{}`))
	for _, in := range []string{``, `{`, `{} {}`, `{"a":}`} {
		err := s.ValidateJSON([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), "arguments are not valid JSON: ") {
			t.Errorf("%q: got %v", in, err)
		}
	}
}

func TestCompile_RejectsNonSchemas(t *testing.T) {
	for _, in := range []string{`"x"`, `[]`, `3`, `{`} {
		if _, err := Compile([]byte(in)); err == nil {
			t.Errorf("%q compiled", in)
		}
	}
}

func TestCheckInput(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, ""},
		{`{}`, ""},
		{`{"type":["object","null"]}`, ""},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{}},"enum":[{"$ref":"#/nowhere"}]}`, ""},
		{`true`, "input schema must be an object schema, got boolean"},
		{`{"type":"string"}`, `input schema has type "string"; tool arguments are an object`},
		{`{"properties":[]}`, "input schema properties must be an object, got array"},
		{`{"properties":{"a":"string"}}`, `input schema property "a" must be a schema object, got string`},
		{`{"required":"a"}`, "input schema required must be an array of names, got string"},
		{`{"required":[1]}`, "input schema required lists a number, not a name"},
		{`{"properties":{"a":{"$ref":"#/$defs/x"}}}`, `input schema $ref "#/$defs/x" does not resolve`},
		{`not json`, "schema is not valid JSON: invalid character 'o' in literal null (expecting 'u')"},
	}
	for _, tt := range tests {
		if got := errText(CheckInput([]byte(tt.schema))); got != tt.want {
			t.Errorf("%s\n got: %s\nwant: %s", tt.schema, got, tt.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// BenchmarkValidate measures a typical call: compile a native tool's schema
// and check arguments against it, as tools.Invoke does on every call.
func BenchmarkValidate(b *testing.B) {
	args := []byte(`{"path":"a/b.go","old_string":"x","count":3,"mode":"a","edits":[{"new_string":"y"},{"new_string":"z"}]}`)
	for b.Loop() {
		s, err := Compile([]byte(editSchema))
		if err != nil {
			b.Fatal(err)
		}
		if err := s.ValidateJSON(args); err != nil {
			b.Fatal(err)
		}
	}
}
