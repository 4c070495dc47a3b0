package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reference decodes as the schema package's own decoder does.
func reference(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

var valueCases = []string{
	`{}`, `[]`, `{"text":"x"}`, ` { "a" : [ 1 , -2.5e3 , true , false , null , "s" ] , "b" : { "c" : {} } } `,
	`"esc\"aped\\ \u00fc \ud83d\ude00 \ud800"`, `"caf\u00e9 café"`, "\"\xff\xfe\"", `12345678901234567890`,
	`{"a":1,"a":2}`, `[[],[{}],[[1]]]`, `{"k\u0041":"v"}`, `0`, `-0.0`, `"\/"`,
}

func TestDecodeValue_AgreesWithEncodingJSON(t *testing.T) {
	for _, in := range valueCases {
		compareValue(t, []byte(in))
	}
	if _, err := decodeValue([]byte(`{"a":`)); err == nil {
		t.Error("truncated JSON decoded")
	}
}

func compareValue(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := reference(data)
	got, err := decodeValue(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%q: error %v, encoding/json %v", data, err, wantErr)
	}
	if err == nil && !cmp.Equal(got, want) {
		t.Fatalf("%q: %#v, encoding/json %#v", data, got, want)
	}
}

func FuzzDecodeValue(f *testing.F) {
	for _, in := range valueCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareValue(t, data) })
}
