package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestShown_HidesValuesEverywhereAHostLooks(t *testing.T) {
	tool := &Tool{Name: "secret_set", Hidden: []string{"value"}}
	args := json.RawMessage(`{"name":"TOKEN","value":"hunter2-very-secret"}`)
	if got, want := string(tool.Shown(args)), `{"name":"TOKEN","value":"[hidden]"}`; got != want {
		t.Errorf("Shown = %s, want %s", got, want)
	}
	if d := tool.ConsentFor(Call{Args: args}).Detail; strings.Contains(d, "hunter2") || !strings.Contains(d, "TOKEN") {
		t.Errorf("default consent detail = %q", d)
	}
	if got := string(tool.Shown(json.RawMessage(`"hunter2-very-secret"`))); got != `"[hidden]"` {
		t.Errorf("non-object arguments: Shown = %s", got)
	}
	plain := &Tool{Name: "echo"}
	if got := string(plain.Shown(args)); got != string(args) {
		t.Errorf("a tool hiding nothing changed its arguments: %s", got)
	}
}
