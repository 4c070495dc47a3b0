package schema

import (
	"encoding/json"
	"testing"
)

func TestArgs_AbsentOrNullIsEmptyObject(t *testing.T) {
	for in, want := range map[string]string{"": "{}", "  ": "{}", "null": "{}", " null\n": "{}", `{"a":1}`: `{"a":1}`, "[]": "[]", `"x"`: `"x"`} {
		if got := string(Args(json.RawMessage(in))); got != want {
			t.Errorf("Args(%q) = %s, want %s", in, got, want)
		}
	}
	if got := string(OrObject(nil)); got != `{"type":"object"}` {
		t.Errorf("OrObject(nil) = %s", got)
	}
	if got := string(OrObject(json.RawMessage(`{"type":"string"}`))); got != `{"type":"string"}` {
		t.Errorf("OrObject kept = %s", got)
	}
}
