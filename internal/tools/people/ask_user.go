// Package people holds the tool that reaches the person at the terminal.
package people

import (
	"context"
	"embed"

	"tai/internal/tools"
)

// AskUserName is the tool's name.
const AskUserName = "ask_user"

//go:embed ask_user.md
var docs embed.FS

// NoUser is the answer when nobody is at a terminal.
const NoUser = "denied: no user"

// Tools returns the people group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: "people", Docs: docs}
	return []*tools.Tool{tools.Define(group.Tool(AskUserName, tools.AlwaysSafe), askUser)}
}

func askUser(ctx context.Context, call tools.Call, in askArgs) (tools.Result, error) {
	// A served chat's agent asks the person at the MCP client (its
	// Prompter); any other served call has nobody to ask.
	if call.Env == nil || call.Env.Prompter == nil || call.Env.Door == tools.DoorServed {
		return tools.Text(NoUser), nil
	}
	answer, err := call.Env.Prompter.Ask(ctx, in.Question, in.Choices)
	if err != nil {
		return tools.Errorf("ask_user: %v", err), nil
	}
	return tools.Text(answer), nil
}

type askArgs struct {
	Question string   `json:"question" jsonschema:"the question, in one or a few sentences"`
	Choices  []string `json:"choices,omitempty" jsonschema:"optional answers to pick from" maxItems:"9"`
}
