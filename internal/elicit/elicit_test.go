package elicit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/wire"
)

func form(t *testing.T, props string, required ...string) *Request {
	t.Helper()
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	r, err := Parse(json.RawMessage(`{"message":"m","requestedSchema":{"type":"object","properties":` + props + `,"required":` + string(req) + `}}`))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return r
}

// everything is server-everything's trigger-elicitation-request schema,
// every kind the specification lists.
const everything = `{
 "name": {"title": "String", "type": "string", "description": "Your full, legal name"},
 "check": {"title": "Boolean", "type": "boolean"},
 "firstLine": {"type": "string", "default": "It was a dark and stormy night."},
 "email": {"type": "string", "format": "email"},
 "homepage": {"type": "string", "format": "uri"},
 "birthdate": {"type": "string", "format": "date"},
 "integer": {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
 "number": {"type": "number", "minimum": 0, "maximum": 1000, "default": 3.14},
 "untitled": {"type": "string", "enum": ["Monica", "Rachel"], "default": "Monica"},
 "multi": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["Guitar", "Piano", "Violin"]}, "default": ["Guitar"]},
 "titled": {"type": "string", "oneOf": [{"const": "hero-1", "title": "Superman"}, {"const": "hero-2", "title": "Green Lantern"}], "default": "hero-1"},
 "titledMulti": {"type": "array", "items": {"anyOf": [{"const": "fish-1", "title": "Tuna"}, {"const": "fish-2", "title": "Salmon"}]}, "default": ["fish-1"]},
 "legacy": {"type": "string", "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"], "default": "pet-1"}
}`

func TestParse_EveryKindInTheServersOrder(t *testing.T) {
	r := form(t, everything, "name")
	var got []string
	for _, f := range r.Fields {
		got = append(got, f.Name+":"+string(f.Kind))
	}
	want := []string{"name:string", "check:boolean", "firstLine:string", "email:string", "homepage:string", "birthdate:string",
		"integer:integer", "number:number", "untitled:choice", "multi:choices", "titled:choice", "titledMulti:choices", "legacy:choice"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("fields (-want +got):\n%s", diff)
	}
	if !r.Fields[0].Required || r.Fields[1].Required {
		t.Fatalf("required: name %v, check %v", r.Fields[0].Required, r.Fields[1].Required)
	}
	if got := r.Fields[12].Options; got[1] != (Option{Value: "pet-2", Title: "Dogs"}) {
		t.Fatalf("legacy enumNames: %+v", got)
	}
	if got := r.Fields[10].Text("hero-2"); got != "Green Lantern (hero-2)" {
		t.Fatalf("titled option shown as %q", got)
	}
	if _, all := r.Defaults(); all {
		t.Fatal("a form with fields without defaults reported all defaults")
	}
}

// TestDefaults_SEP1034 is the conformance suite's form: every field has a
// default, so it can be accepted as the server filled it.
func TestDefaults_SEP1034(t *testing.T) {
	r := form(t, `{"name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},
		"score":{"type":"number","default":95.5},"status":{"type":"string","enum":["active","inactive"],"default":"active"},
		"verified":{"type":"boolean","default":true}}`)
	got, all := r.Defaults()
	if !all {
		t.Fatal("every field has a default, but Defaults says not")
	}
	want := map[string]any{"name": "John Doe", "age": 30.0, "score": 95.5, "status": "active", "verified": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("defaults (-want +got):\n%s", diff)
	}
	if err := r.Check(got); err != nil {
		t.Fatal(err)
	}
	res := Result{Action: Accept, Content: got}.JSON()
	if !strings.Contains(string(res), `"age":30,`) {
		t.Fatalf("an integer default is sent as %s", res)
	}
}

func TestParse_RefusesWhatAFormCannotAsk(t *testing.T) {
	cases := map[string]string{
		"no message":        `{"requestedSchema":{"type":"object","properties":{}}}`,
		"no schema":         `{"message":"m"}`,
		"not an object":     `{"message":"m","requestedSchema":{"type":"array"}}`,
		"nested object":     `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"object","properties":{}}}}}`,
		"array of objects":  `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"array","items":{"type":"object"}}}}}`,
		"unknown keyword":   `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","$ref":"#/x"}}}}`,
		"unknown format":    `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","format":"ipv4"}}}}`,
		"bad default":       `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"integer","maximum":3,"default":9}}}}`,
		"default off enum":  `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","enum":["x"],"default":"y"}}}}`,
		"min over max":      `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","minLength":5,"maxLength":2}}}}`,
		"limit on boolean":  `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"boolean","minimum":1}}}}`,
		"lookahead pattern": `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","pattern":"(?=a)"}}}}`,
		"enumNames count":   `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","enum":["x","y"],"enumNames":["X"]}}}}`,
		"duplicate option":  `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","enum":["x","x"]}}}}`,
		"required unknown":  `{"message":"m","requestedSchema":{"type":"object","properties":{},"required":["b"]}}`,
		"no type":           `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"title":"A"}}}}`,
		"unknown mode":      `{"mode":"carrier-pigeon","message":"m"}`,
		"not json":          `[1,2`,
	}
	for name, params := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(json.RawMessage(params))
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Parse(%s) = %v, want a refusal", params, err)
			}
			if strings.Contains(re.Error(), "\n") {
				t.Fatalf("refusal is not one line: %q", re.Error())
			}
			if we := re.WireError(); we.Code != wire.CodeInvalidParams {
				t.Fatalf("wire code %d", we.Code)
			}
		})
	}
}

func TestParse_Caps(t *testing.T) {
	big := `{"message":"` + strings.Repeat("x", wire.ElicitMaxBytes) + `","requestedSchema":{"type":"object","properties":{}}}`
	if _, err := Parse(json.RawMessage(big)); err == nil || !strings.Contains(err.Error(), "MCP_ELICIT_MAX_BYTES") {
		t.Fatalf("a request over the byte cap: %v", err)
	}
	var props []string
	for i := 0; i <= wire.ElicitMaxFields; i++ {
		props = append(props, `"f`+strings.Repeat("x", i)+`":{"type":"string"}`)
	}
	many := `{"message":"m","requestedSchema":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}`
	if _, err := Parse(json.RawMessage(many)); err == nil || !strings.Contains(err.Error(), "MCP_ELICIT_MAX_FIELDS") {
		t.Fatalf("a form over the field cap: %v", err)
	}
	long := strings.Repeat("é", wire.ElicitMessageMax)
	shown := Shown(long)
	if len(shown) > wire.ElicitMessageMax+64 || !strings.Contains(shown, "more bytes not shown") || !strings.HasPrefix(long, strings.SplitN(shown, " […", 2)[0]) {
		t.Fatalf("a long message is shown as %d bytes ending %q", len(shown), shown[len(shown)-40:])
	}
	if Shown("short") != "short" {
		t.Fatal("a short message was changed")
	}
}

func TestField_ParseAndCheck(t *testing.T) {
	r := form(t, `{
		"s": {"type":"string","minLength":2,"maxLength":4},
		"p": {"type":"string","pattern":"^[a-z]+$"},
		"e": {"type":"string","format":"email"},
		"u": {"type":"string","format":"uri"},
		"d": {"type":"string","format":"date"},
		"dt": {"type":"string","format":"date-time"},
		"i": {"type":"integer","minimum":1,"maximum":10},
		"n": {"type":"number","maximum":1.5},
		"b": {"type":"boolean"},
		"c": {"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]},
		"m": {"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["x","y","z"]}}
	}`)
	field := map[string]Field{}
	for _, f := range r.Fields {
		field[f.Name] = f
	}
	cases := []struct {
		field, answer string
		want          any // nil: refused
	}{
		{"s", "ab", "ab"}, {"s", "a", nil}, {"s", "abcde", nil}, {"s", "éééé", "éééé"},
		{"p", "abc", "abc"}, {"p", "ABC", nil},
		{"e", "a@example.com", "a@example.com"}, {"e", "not-an-email", nil}, {"e", "Bob <a@example.com>", nil},
		{"u", "https://example.com/x", "https://example.com/x"}, {"u", "example.com", nil},
		{"d", "2026-12-03", "2026-12-03"}, {"d", "03/12/2026", nil},
		{"dt", "2026-12-03T08:00:00Z", "2026-12-03T08:00:00Z"}, {"dt", "2026-12-03", nil},
		{"i", "7", 7.0}, {"i", "7.5", nil}, {"i", "0", nil}, {"i", "11", nil}, {"i", "seven", nil},
		{"n", "1.25", 1.25}, {"n", "2", nil}, {"n", "NaN", nil}, {"n", "Inf", nil},
		{"b", "y", true}, {"b", "No", false}, {"b", "maybe", nil},
		{"c", "2", "b"}, {"c", "a", "a"}, {"c", "3", nil}, {"c", "A", nil},
		{"m", "1, 3", []string{"x", "z"}}, {"m", "z,x", []string{"x", "z"}}, {"m", "1,2,3", nil}, {"m", "1,1", nil}, {"m", "w", nil},
	}
	for _, c := range cases {
		got, err := field[c.field].Parse(c.answer)
		switch {
		case c.want == nil && err == nil:
			t.Errorf("%s: %q was taken as %v, want refused", c.field, c.answer, got)
		case c.want != nil && err != nil:
			t.Errorf("%s: %q refused: %v", c.field, c.answer, err)
		case c.want != nil && !cmp.Equal(c.want, got):
			t.Errorf("%s: %q = %#v, want %#v", c.field, c.answer, got, c.want)
		}
	}
}

func TestRequest_CheckContent(t *testing.T) {
	r := form(t, `{"a":{"type":"string"},"b":{"type":"integer"}}`, "a")
	for _, bad := range []map[string]any{{}, {"a": 1.0}, {"a": "x", "b": 1.5}, {"a": "x", "z": "y"}} {
		if err := r.Check(bad); err == nil {
			t.Errorf("Check(%v) passed", bad)
		}
	}
	if err := r.Check(map[string]any{"a": "x", "b": 2.0}); err != nil {
		t.Fatal(err)
	}
}

func TestField_SecretLooking(t *testing.T) {
	r := form(t, `{
		"password": {"type":"string"},
		"apiKey": {"type":"string"},
		"github_token": {"type":"string"},
		"note": {"type":"string","description":"Paste your API key here"},
		"keyboard": {"type":"string"},
		"integer": {"type":"integer","description":"do not give us your phone number, pin, or other sensitive info"},
		"name": {"type":"string","title":"Name"}
	}`)
	want := map[string]bool{"password": true, "apiKey": true, "github_token": true, "note": true}
	for _, f := range r.Fields {
		if f.Secret != want[f.Name] {
			t.Errorf("%s: Secret = %v", f.Name, f.Secret)
		}
	}
}

func TestParse_URL(t *testing.T) {
	ok := map[string]string{
		"https://mcp.example.com/connect?x=1": "mcp.example.com",
		"http://localhost:8080/cb":            "localhost",
		"http://127.0.0.1/cb":                 "127.0.0.1",
		"http://[::1]:9/cb":                   "::1",
	}
	for u, host := range ok {
		r, err := Parse(json.RawMessage(`{"mode":"url","message":"m","elicitationId":"e1","url":` + quote(u) + `}`))
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		if r.Host != host || r.ID != "e1" || len(r.Warnings) != 0 {
			t.Errorf("%s: host %q id %q warnings %v", u, r.Host, r.ID, r.Warnings)
		}
	}
	refusedURLs := []string{"", "javascript:alert(1)", "file:///etc/passwd", "http://example.com/", "https://", "https://paypal.com@evil.example/", "ftp://example.com/", "data:text/html,hi", "%zz"}
	for _, u := range refusedURLs {
		_, err := Parse(json.RawMessage(`{"mode":"url","message":"m","elicitationId":"e1","url":` + quote(u) + `}`))
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Errorf("%q: %v, want refused", u, err)
		}
	}
	if _, err := Parse(json.RawMessage(`{"mode":"url","message":"m","url":"https://example.com"}`)); err == nil {
		t.Error("a URL elicitation without an elicitationId was taken")
	}
	flagged := map[string]string{
		"https://xn--pple-43d.com/":  "punycode",
		"https://аpple.com/":         "several scripts",
		"https://例え.テスト/":            "several scripts",
		"https://bücher.example/":    "beyond ASCII",
		"https://xn--bcher-kva.test": "punycode",
	}
	for u, word := range flagged {
		_, warnings, err := CheckURL(u)
		if err != nil || !strings.Contains(strings.Join(warnings, " "), word) {
			t.Errorf("%s: warnings %v (%v), want one about %s", u, warnings, err, word)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
