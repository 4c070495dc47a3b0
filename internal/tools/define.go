package tools

import (
	"context"
	"reflect"
	"strings"

	"tai/internal/vault"
)

// Define is the one way to declare a tool: t's declaration (name,
// description, schema, group, safety and consent rules) and a run function
// that takes the arguments decoded, strictly and once, into an In. Invoke
// has validated them against t.Schema before, so run never sees what the
// schema refuses; the schema's properties and In's json tags are kept in
// step by a test over the whole catalogue (see ArgsType). The description
// is trimmed, so a tool's .md file may end in a newline.
func Define[In any](t Tool, run func(ctx context.Context, call Call, in In) (Result, error)) *Tool {
	t.Description = strings.TrimSpace(t.Description)
	t.args = reflect.TypeFor[In]()
	name := t.Name
	t.Run = func(ctx context.Context, call Call) (Result, error) {
		in, err := DecodeArgs[In](call.Args)
		if err != nil {
			return Errorf("%s: arguments: %v", name, err), nil
		}
		return run(ctx, call, in)
	}
	return &t
}

// DefineVault declares a tool over the vault: a host without one, or an
// error from body, is a one-line tool error prefixed with the tool's name,
// and the text body returns is a successful result.
func DefineVault[In any](t Tool, body func(ctx context.Context, s *vault.Store, call Call, in In) (string, error)) *Tool {
	name := t.Name
	return Define(t, func(ctx context.Context, call Call, in In) (Result, error) {
		s, err := call.Env.Vault()
		if err != nil {
			return Errorf("%s: %v", name, err), nil
		}
		text, err := body(ctx, s, call, in)
		if err != nil {
			return Errorf("%s: %v", name, err), nil
		}
		return Text(text), nil
	})
}

// NoArgs is the In of a tool without parameters.
type NoArgs struct{}

// ArgsType is the Go type a Define'd tool decodes its arguments into, nil
// for a tool built otherwise (a bridged one).
func (t *Tool) ArgsType() reflect.Type { return t.args }
