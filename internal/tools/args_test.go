package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeArgs(t *testing.T) {
	type args struct {
		Name string `json:"name"`
	}
	if a, err := DecodeArgs[args](json.RawMessage(`{"name": "x"}`)); err != nil || a.Name != "x" {
		t.Errorf("valid: %+v, %v", a, err)
	}
	if a, err := DecodeArgs[args](nil); err != nil || a.Name != "" {
		t.Errorf("empty: %+v, %v", a, err)
	}
	if _, err := DecodeArgs[args](json.RawMessage(`{"name": "x", "extra": 1}`)); err == nil || !strings.Contains(err.Error(), `unknown field "extra"`) {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := DecodeArgs[args](json.RawMessage(`{"name": 5}`)); err == nil {
		t.Error("wrong type: no error")
	}
}
