package tools

import (
	"encoding/json"
	"testing"
)

func TestSafety(t *testing.T) {
	readOnly := func(args json.RawMessage) bool { return string(args) == `{"action":"list"}` }
	for _, tt := range []struct {
		safe func(json.RawMessage) bool
		want string
	}{
		{nil, SafetyAsks},
		{AlwaysSafe, SafetySafe},
		{readOnly, SafetyDepends},
	} {
		if got := (&Tool{Safe: tt.safe}).Safety(); got != tt.want {
			t.Errorf("Safety() = %q, want %q", got, tt.want)
		}
	}
}
