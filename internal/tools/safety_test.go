package tools

import "testing"

func TestSafety(t *testing.T) {
	readOnly := func(call Call) bool { return string(call.Args) == `{"action":"list"}` }
	for _, tt := range []struct {
		safe func(Call) bool
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
