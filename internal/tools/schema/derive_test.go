package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type derivedShared struct {
	Paths []string `json:"paths,omitempty" jsonschema:"Limit to these." minLength:"1" maxItems:"200"`
}

type derivedItem struct {
	Text string `json:"text" minLength:"1"`
	Done bool   `json:"done,omitempty"`
}

type derivedKind string

func (derivedKind) JSONSchema() Node {
	return Node{Type: "string", Enum: []string{"a", "b"}, Description: "One of a, b."}
}

type derivedArgs struct {
	derivedShared
	Name    string            `json:"name" jsonschema:"The name, \"quoted\"." pattern:"^[a-z]{1,3}$" maxLength:"64"`
	Limit   int               `json:"limit,omitempty" minimum:"1" maximum:"500"`
	Ratio   float64           `json:"ratio,omitempty" minimum:"0.5"`
	Mode    string            `json:"mode,omitempty" enum:"list,create"`
	Items   []derivedItem     `json:"items,omitempty" minItems:"1"`
	Headers map[string]string `json:"headers,omitempty" maxProperties:"50"`
	Any     map[string]any    `json:"any,omitempty"`
	Kind    derivedKind       `json:"kind,omitempty" jsonschema:"The kind."`
	Skipped string            `json:"-"`
}

func TestFor_DerivesEveryKeyword(t *testing.T) {
	got, err := For(reflect.TypeFor[derivedArgs]())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{` +
		`"paths":{"type":"array","description":"Limit to these.","items":{"type":"string","minLength":1},"maxItems":200},` +
		`"name":{"type":"string","description":"The name, \"quoted\".","pattern":"^[a-z]{1,3}$","maxLength":64},` +
		`"limit":{"type":"integer","minimum":1,"maximum":500},` +
		`"ratio":{"type":"number","minimum":0.5},` +
		`"mode":{"type":"string","enum":["list","create"]},` +
		`"items":{"type":"array","items":{"type":"object","properties":{"text":{"type":"string","minLength":1},"done":{"type":"boolean"}},"required":["text"],"additionalProperties":false},"minItems":1},` +
		`"headers":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":50},` +
		`"any":{"type":"object"},` +
		`"kind":{"type":"string","description":"The kind. One of a, b.","enum":["a","b"]}},` +
		`"required":["name"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("For:\n got %s\nwant %s", got, want)
	}
	if err := CheckInput(got); err != nil {
		t.Errorf("derived schema is no input schema: %v", err)
	}
}

// A derived schema validates as it says: the tags are enforced, not only
// written out.
func TestFor_ValidatesWhatTheTagsSay(t *testing.T) {
	doc, err := For(reflect.TypeFor[derivedArgs]())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(doc)
	if err != nil {
		t.Fatal(err)
	}
	for args, wantErr := range map[string]string{
		`{"name":"ab"}`:                         "",
		`{}`:                                    "name",
		`{"name":"ab","limit":501}`:             "limit",
		`{"name":"ab","mode":"switch"}`:         "mode",
		`{"name":"abcd"}`:                       "name",
		`{"name":"ab","paths":[""]}`:            "paths",
		`{"name":"ab","items":[]}`:              "items",
		`{"name":"ab","items":[{"done":true}]}`: "text",
		`{"name":"ab","other":1}`:               "other",
		`{"name":"ab","kind":"c"}`:              "kind",
	} {
		err := s.ValidateJSON(json.RawMessage(args))
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("%s: %v", args, err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("%s: error %v, want one naming %q", args, err, wantErr)
		}
	}
}

func TestFor_RefusesWhatItCannotSay(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"not a struct", reflect.TypeFor[string](), "must be a struct"},
		{"unknown tag", reflect.TypeFor[struct {
			A string `json:"a" maxlength:"3"`
		}](), "unknown tag maxlength"},
		{"keyword of another type", reflect.TypeFor[struct {
			A int `json:"a" minLength:"1"`
		}](), "applies to type string, not integer"},
		{"not a number", reflect.TypeFor[struct {
			A int `json:"a" maximum:"many"`
		}](), "not a number"},
		{"raw JSON", reflect.TypeFor[struct {
			A json.RawMessage `json:"a"`
		}](), "json.RawMessage has no schema"},
		{"no JSON type", reflect.TypeFor[struct {
			A chan int `json:"a"`
		}](), "has no JSON Schema type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := For(tt.typ)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
