package memory

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed memory_delete.md
var deleteDescription string

func deleteTool() *tools.Tool {
	return tools.DefineVault(tools.Tool{
		Name:        DeleteName,
		Group:       Group,
		Description: strings.TrimSpace(deleteDescription),
		Safe:        tools.AlwaysSafe,
	}, deleteMemory)
}

type deleteArgs struct {
	ID string `json:"id" jsonschema:"The memory's id, e.g. \"m4kd82xq\"." minLength:"1" maxLength:"64"`
}

func deleteMemory(ctx context.Context, s *vault.Store, call tools.Call, in deleteArgs) (string, error) {
	id := strings.TrimSpace(in.ID)
	if err := s.DeleteMemory(ctx, call.Env.Profile, id); err != nil {
		if vault.IsNotFound(err) {
			return "", fmt.Errorf("no memory %q in this profile; find ids with %s", id, SearchName)
		}
		return "", err
	}
	return "deleted memory " + id, nil
}
