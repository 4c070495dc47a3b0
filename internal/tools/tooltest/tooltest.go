// Package tooltest runs native tools the way the agent does, against a
// real vault in a temporary home, for the tool groups' tests.
package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/schema"
	"tai/internal/vault"
)

// Source is a tools.Source over a fixed list, standing in for the bridge.
type Source []*tools.Tool

var _ tools.Source = Source(nil)

// Tools returns the list.
func (s Source) Tools() []*tools.Tool { return s }

// Lookup returns the tool of the list named name.
func (s Source) Lookup(name string) (*tools.Tool, bool) {
	for _, t := range s {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Env returns a host on a fresh vault in t's temporary directory, on the
// default profile, session "s1", approval mode ask.
func Env(t testing.TB) *tools.Env {
	t.Helper()
	s, err := vault.Open(context.Background(), filepath.Join(t.TempDir(), "home"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &tools.Env{Dir: t.TempDir(), Store: s, Profile: vault.DefaultProfile, Session: "s1",
		Approval: "ask", State: &tools.State{}}
}

// Find returns the tool named name from group, failing t when it is absent.
func Find(t testing.TB, group []*tools.Tool, name string) *tools.Tool {
	t.Helper()
	for _, tl := range group {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %q in the group", name)
	return nil
}

// Run validates args and runs tl in env through tools.Invoke, failing t on
// a Go error (a call that could not be carried out at all).
func Run(t testing.TB, tl *tools.Tool, env *tools.Env, args string) tools.Result {
	t.Helper()
	res, err := tools.Invoke(context.Background(), tl, tools.Call{ID: "c1", Args: json.RawMessage(args), Env: env}, tools.Via{})
	if err != nil {
		t.Fatalf("%s(%s): %v", tl.Name, args, err)
	}
	return res.Result
}

// MustRun is Run that also fails t when the result is a tool error.
func MustRun(t testing.TB, tl *tools.Tool, env *tools.Env, args string) string {
	t.Helper()
	res := Run(t, tl, env, args)
	if res.IsError {
		t.Fatalf("%s(%s): tool error: %s", tl.Name, args, res.Text)
	}
	return res.Text
}

// CheckDeclared fails t for each tool not declared with tools.Define, or
// whose schema is not the one its argument struct derives (replaced after
// Define): a schema is stated once, in the struct.
func CheckDeclared(t testing.TB, group []*tools.Tool) {
	t.Helper()
	for _, tl := range group {
		typ := tl.ArgsType()
		if typ == nil {
			t.Errorf("%s is not declared with tools.Define", tl.Name)
			continue
		}
		want, err := schema.For(typ)
		if err != nil || !bytes.Equal(tl.Schema, want) {
			t.Errorf("%s: schema %s is not the one %v derives (%s, %v)", tl.Name, tl.Schema, typ, want, err)
		}
	}
}

// Fails is Run that fails t unless the result is a tool error, and returns
// its text.
func Fails(t testing.TB, tl *tools.Tool, env *tools.Env, args string) string {
	t.Helper()
	res := Run(t, tl, env, args)
	if !res.IsError {
		t.Fatalf("%s(%s): succeeded with %q, want a tool error", tl.Name, args, res.Text)
	}
	return res.Text
}

// CheckSurface fails t for each tool of a group whose public surface falls
// short: a schema a client could not use or that admits arguments the tool
// would ignore, a property without a description, a description of more
// than one paragraph, or another catalogue group than group.
func CheckSurface(t testing.TB, tls []*tools.Tool, group string) {
	t.Helper()
	for _, tl := range tls {
		if err := schema.CheckInput(tl.Schema); err != nil {
			t.Errorf("%s: %v", tl.Name, err)
		}
		var s struct {
			Properties           map[string]map[string]any `json:"properties"`
			AdditionalProperties *bool                     `json:"additionalProperties"`
		}
		if err := json.Unmarshal(tl.Schema, &s); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		if s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema does not set additionalProperties false", tl.Name)
		}
		for name, p := range s.Properties {
			if d, _ := p["description"].(string); d == "" {
				t.Errorf("%s: property %s has no description", tl.Name, name)
			}
		}
		if tl.Description == "" || strings.Contains(tl.Description, "\n") || tl.Group != group {
			t.Errorf("%s: description must be one non-empty paragraph and group %q", tl.Name, group)
		}
	}
}
