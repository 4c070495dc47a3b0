// Package tooltest runs native tools the way the agent does, against a
// real vault in a temporary home, for the tool groups' tests.
package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/schema"
	"tai/internal/vault"
)

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
