package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"strings"

	"tai/internal/tools/schema"
	"tai/internal/vault"
)

// Define is the one way to declare a tool: its struct In and its run
// function. t gives the rest of the declaration (name, description,
// group, Hidden); t.Schema is derived from In's fields and tags (see
// schema.For), so a property, its limits and the field that receives it
// are stated once. Invoke validates a call against that schema and
// decodes it, strictly and once, into an In that run and the rules get;
// a rule is set with SafeIf, ConsentBy, ReachBy or SubjectBy, or
// AlwaysSafe in t.Safe. The description is trimmed, so a tool's .md file
// may end in a newline.
//
// Define panics when t states a schema of its own or In has none (a tag
// For does not know, a keyword on the wrong type): a declaration to fix,
// which the catalogue's tests meet at once.
func Define[In any](t Tool, run func(ctx context.Context, call Call, in In) (Result, error), rules ...Rule[In]) *Tool {
	typ := reflect.TypeFor[In]()
	if t.Schema != nil {
		panic(fmt.Sprintf("tool %s: Define derives the schema from %v; declare it in the struct's tags", t.Name, typ))
	}
	doc, err := schema.For(typ)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err))
	}
	t.Schema = doc
	t.Description = strings.TrimSpace(t.Description)
	t.args = typ
	t.decode = func(raw json.RawMessage) (any, error) { return DecodeArgs[In](raw) }
	name := t.Name
	t.run = func(ctx context.Context, call Call) (Result, error) {
		in, err := ArgsOf[In](call)
		if err != nil {
			return Errorf("%s: arguments: %v", name, err), nil
		}
		return run(ctx, call, in)
	}
	for _, r := range rules {
		r(&t)
	}
	return &t
}

// Raw declares a tool whose schema is given as it is rather than derived
// from a struct: a bridged MCP tool, whose server states it. Invoke
// validates a call against t.Schema (any object when it has none) and
// hands run the arguments as sent. t's rules are set in t itself.
func Raw(t Tool, run RunFunc) *Tool {
	t.run = run
	return &t
}

// DefineVault declares a tool over the vault: a host without one, or an
// error from body, is a one-line tool error prefixed with the tool's name,
// and the text body returns is a successful result.
func DefineVault[In any](t Tool, body func(ctx context.Context, s *vault.Store, call Call, in In) (string, error), rules ...Rule[In]) *Tool {
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
	}, rules...)
}

// NoArgs is the In of a tool without parameters.
type NoArgs struct{}

// ArgsType is the Go type a Define'd tool decodes its arguments into, nil
// for a tool built otherwise (a bridged one).
func (t *Tool) ArgsType() reflect.Type { return t.args }

// ArgsOf is call's arguments as an In: decoded once by Invoke, or, for a
// call that did not come through it (a host's preview, a test), decoded
// now by the same strict decode.
func ArgsOf[In any](call Call) (In, error) {
	if in, ok := call.in.(In); ok {
		return in, nil
	}
	return DecodeArgs[In](call.Args)
}

// A Rule sets one of a Define'd tool's rules from a function over its
// decoded arguments.
type Rule[In any] func(t *Tool)

// SafeIf makes safe reports the tool's Safe rule; arguments that do not
// decode are not safe.
func SafeIf[In any](safe func(in In) bool) Rule[In] {
	return func(t *Tool) {
		t.Safe = func(call Call) bool {
			in, err := ArgsOf[In](call)
			return err == nil && safe(in)
		}
	}
}

// ConsentBy makes consent the tool's Consent rule; arguments that do not
// decode are shown as the default digest.
func ConsentBy[In any](consent func(call Call, in In) Consent) Rule[In] {
	return func(t *Tool) {
		t.Consent = func(call Call) Consent {
			in, err := ArgsOf[In](call)
			if err != nil {
				return t.digestConsent(call)
			}
			return consent(call, in)
		}
	}
}

// ReachBy makes reach the tool's Reach rule; arguments that do not decode
// reach what cannot be named, so the call asks.
func ReachBy[In any](reach func(call Call, in In) Reach) Rule[In] {
	return func(t *Tool) {
		t.Reach = func(call Call) Reach {
			in, err := ArgsOf[In](call)
			if err != nil {
				return Reach{Unknown: fmt.Sprintf("arguments: %v", err)}
			}
			return reach(call, in)
		}
	}
}

// SubjectBy makes subject what the tool's audit rows name; arguments that
// do not decode name the tool.
func SubjectBy[In any](subject func(in In) string) Rule[In] {
	return func(t *Tool) {
		name := t.Name
		t.Subject = func(call Call) string {
			in, err := ArgsOf[In](call)
			if err != nil {
				return name
			}
			return subject(in)
		}
	}
}

// Group is a group of native tools as declared: its catalogue name and
// its tools' descriptions, NAME.md beside each tool's NAME.go.
type Group struct {
	Name string
	Docs fs.FS
}

// Tool starts the declaration of g's tool name for Define: its
// description read from g.Docs, and safe as its safety rule (nil: never
// safe). A missing description panics: a declaration to fix, which the
// catalogue's tests meet at once.
func (g Group) Tool(name string, safe func(Call) bool) Tool {
	b, err := fs.ReadFile(g.Docs, name+".md")
	if err != nil {
		panic(fmt.Sprintf("tool %s: no description: %v", name, err))
	}
	return Tool{Name: name, Description: string(b), Group: g.Name, Safe: safe}
}
