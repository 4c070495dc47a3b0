package schema

import (
	"strings"
	"testing"
)

// FuzzValidate checks that no schema and no instance crash the validator or
// yield an error that is not one line.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(editSchema), []byte(`{"path":"a","old_string":"x","edits":[{}]}`))
	f.Add([]byte(`{"anyOf":[{"$ref":"#"},{"type":"string"}]}`), []byte(`[1]`))
	f.Add([]byte(`{"items":[{"pattern":"\\d"}],"uniqueItems":true}`), []byte(`["a","a"]`))
	f.Add([]byte(`{"type":["integer","x\n"],"multipleOf":1e-300}`), []byte(`1e308`))
	f.Add([]byte(`{"properties":{"a\nb":{}},"additionalProperties":false}`), []byte(`{"c\n":1}`))
	f.Fuzz(func(t *testing.T, schemaDoc, instance []byte) {
		_ = CheckInput(schemaDoc)
		s, err := Compile(schemaDoc)
		if err != nil {
			return
		}
		if err := s.ValidateJSON(instance); err != nil {
			msg := err.Error()
			if msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error is not one line: %q", msg)
			}
		}
	})
}
