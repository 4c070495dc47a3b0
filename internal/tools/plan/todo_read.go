package plan

import (
	"context"

	"tai/internal/tools"
	"tai/internal/vault"
)

func read(ctx context.Context, s *vault.Store, call tools.Call, _ tools.NoArgs) (string, error) {
	items, err := s.Todos(ctx, call.Env.Profile, call.Env.Session)
	if err != nil {
		return "", err
	}
	return Format(items), nil
}
