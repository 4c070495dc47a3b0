package plan

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"tai/internal/tools"
)

//go:embed todo_read.md
var readDescription string

func readTool() *tools.Tool {
	return &tools.Tool{
		Name:        ReadName,
		Group:       Group,
		Description: strings.TrimSpace(readDescription),
		Schema:      json.RawMessage(`{"type": "object", "properties": {}, "additionalProperties": false}`),
		Safe:        tools.AlwaysSafe,
		Run:         read,
	}
}

func read(ctx context.Context, call tools.Call) (tools.Result, error) {
	s, err := call.Env.Vault()
	if err != nil {
		return tools.Errorf("%s: %v", ReadName, err), nil
	}
	items, err := s.Todos(ctx, call.Env.Profile, call.Env.Session)
	if err != nil {
		return tools.Errorf("%s: %v", ReadName, err), nil
	}
	return tools.Text(s.Redact(Format(items))), nil
}
