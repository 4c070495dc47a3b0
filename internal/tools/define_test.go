package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"tai/internal/vault"
)

// countedArgs counts how often a call's arguments are decoded.
type countedArgs struct {
	Path string `json:"path" jsonschema:"What to read." minLength:"1"`
	Deep bool   `json:"deep,omitempty"`
}

var decodes atomic.Int64

func (a *countedArgs) UnmarshalJSON(b []byte) error {
	decodes.Add(1)
	type plain countedArgs
	return json.Unmarshal(b, (*plain)(a))
}

// askAll is an approver that consults every rule of the tool it is asked
// about, as the agent's approval policy does, and allows the call.
type askAll struct{ seen []string }

func (a *askAll) Approve(_ context.Context, t *Tool, call Call) (Verdict, error) {
	a.seen = append(a.seen, t.ConsentFor(call).Title, strings.Join(t.ReachOf(call).Reads, ","))
	if t.IsSafe(call) {
		a.seen = append(a.seen, "safe")
	}
	return Verdict{Allowed: true}, nil
}

// TestDefine_RulesAndRunShareOneDecode shows that a Define'd tool's
// schema comes from its struct, and that one call through Invoke decodes
// the arguments once for the safety, consent, reach and subject rules and
// the run function alike.
func TestDefine_RulesAndRunShareOneDecode(t *testing.T) {
	var ran countedArgs
	tool := Define(Tool{Name: "peek", Description: "peek\n"}, func(_ context.Context, _ Call, in countedArgs) (Result, error) {
		ran = in
		return Text("ok"), nil
	},
		SafeIf(func(in countedArgs) bool { return !in.Deep }),
		ConsentBy(func(_ Call, in countedArgs) Consent { return Consent{Title: "peek " + in.Path} }),
		PathReach("", func(in countedArgs) string { return in.Path }),
		SubjectBy(func(in countedArgs) string { return "peek:" + in.Path }))
	if want := `{"type":"object","properties":{"path":{"type":"string","description":"What to read.","minLength":1},` +
		`"deep":{"type":"boolean"}},"required":["path"],"additionalProperties":false}`; string(tool.Schema) != want {
		t.Errorf("schema %s, want %s", tool.Schema, want)
	}
	if tool.Description != "peek" || tool.Safety() != SafetyDepends {
		t.Errorf("description %q, safety %q", tool.Description, tool.Safety())
	}
	s, err := vault.Open(context.Background(), filepath.Join(t.TempDir(), "home"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	env := &Env{Dir: "/w", Store: s, Profile: vault.DefaultProfile}
	approver := &askAll{}
	before := decodes.Load()
	res, err := Invoke(context.Background(), tool, Call{Args: json.RawMessage(`{"path":"a.txt"}`), Env: env},
		Via{Origin: vault.OriginAgent, Approver: approver})
	if err != nil || res.IsError {
		t.Fatalf("got %+v, %v", res, err)
	}
	if got := decodes.Load() - before; got != 1 {
		t.Errorf("arguments decoded %d times, want once", got)
	}
	if ran.Path != "a.txt" || strings.Join(approver.seen, "|") != "peek a.txt|/w/a.txt|safe" {
		t.Errorf("run saw %+v, the rules %q", ran, approver.seen)
	}
	rows, err := s.AuditEntries(context.Background(), vault.AuditQuery{})
	if err != nil || len(rows) != 1 || rows[0].Subject != "peek:a.txt" {
		t.Errorf("audit rows %+v, %v; want one naming peek:a.txt", rows, err)
	}
}

// Arguments a schema admits but the struct cannot hold (1.5 for an int)
// are invalid before anyone is asked.
func TestDefine_UndecodableArgumentsAreInvalid(t *testing.T) {
	tool := Define(Tool{Name: "count"}, func(context.Context, Call, struct {
		N int `json:"n"`
	}) (Result, error) {
		t.Fatal("ran")
		return Result{}, nil
	})
	tool.Schema = json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`)
	res, err := Invoke(context.Background(), tool, Call{Args: json.RawMessage(`{"n":1.5}`)}, Via{Approver: &askAll{}})
	if err != nil || !res.Invalid() || !strings.HasPrefix(res.Text, "count: arguments: ") {
		t.Errorf("got %+v, %v", res, err)
	}
}

// A rule asked about a call that did not come through Invoke decodes it
// itself, by the same strict decode: an unknown argument is not safe and
// shows the default digest.
func TestDefine_RulesOutsideInvoke(t *testing.T) {
	type peekArgs struct {
		Path string `json:"path"`
	}
	tool := Define(Tool{Name: "peek"}, func(context.Context, Call, peekArgs) (Result, error) { return Text("ok"), nil },
		SafeIf(func(peekArgs) bool { return true }),
		ConsentBy(func(_ Call, in peekArgs) Consent { return Consent{Title: "peek " + in.Path} }))
	if !tool.IsSafe(Call{Args: json.RawMessage(`{"path":"a"}`)}) || tool.IsSafe(Call{Args: json.RawMessage(`{"path":"a","x":1}`)}) {
		t.Error("SafeIf does not follow the strict decode")
	}
	if got := tool.ConsentFor(Call{Args: json.RawMessage(`{"x":1}`)}).Title; got != "peek" {
		t.Errorf("consent of undecodable arguments: %q, want the default", got)
	}
}
