package memory

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

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

type deleteArgs struct {
	ID string `json:"id" jsonschema:"The memory's id, e.g. \"m4kd82xq\"." minLength:"1" maxLength:"64"`
}
