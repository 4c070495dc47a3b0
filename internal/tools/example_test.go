package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"tai/internal/tools"
	"tai/internal/vault"
)

// greetArgs are the greet tool's arguments: the schema is derived from
// the struct, and Invoke decodes a call into it.
type greetArgs struct {
	Name string `json:"name" jsonschema:"Who to greet."`
}

// greet is a tool declared the one way there is: a struct and a function.
var greet = tools.Define(tools.Tool{Name: "greet", Description: "Greet someone by name.", Safe: tools.AlwaysSafe},
	func(ctx context.Context, call tools.Call, in greetArgs) (tools.Result, error) {
		return tools.Text("hello, " + in.Name), nil
	})

// Define derives a tool's input schema from its argument struct.
func ExampleDefine() {
	fmt.Println(string(greet.Schema))
	// Output:
	// {"type":"object","properties":{"name":{"type":"string","description":"Who to greet."}},"required":["name"],"additionalProperties":false}
}

// Invoke is the one door of every call: it validates the arguments
// against the schema, asks the approver (none here: a caller trusted as
// --yolo would be), runs the tool, redacts and audits the result.
func ExampleInvoke() {
	ctx := context.Background()
	for _, args := range []string{`{"name":"Ada"}`, `{"name":42}`, `{"name":"Ada","shout":true}`} {
		out, err := tools.Invoke(ctx, greet, tools.Call{Args: json.RawMessage(args)}, tools.Via{Origin: vault.OriginCLI})
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s\n", out.Status, out.Text)
	}
	// Output:
	// ok: hello, Ada
	// invalid: greet: argument "name": expected string, got number
	// invalid: greet: unknown argument "shout"; known: "name"
}
