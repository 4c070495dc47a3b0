package plan

import (
	"context"
	_ "embed"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed todo_read.md
var readDescription string

func readTool() *tools.Tool {
	return tools.DefineVault(tools.Tool{
		Name:        ReadName,
		Group:       Group,
		Description: strings.TrimSpace(readDescription),
		Safe:        tools.AlwaysSafe,
	}, read)
}

func read(ctx context.Context, s *vault.Store, call tools.Call, _ tools.NoArgs) (string, error) {
	items, err := s.Todos(ctx, call.Env.Profile, call.Env.Session)
	if err != nil {
		return "", err
	}
	return Format(items), nil
}
