package memory

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed memory_delete.md
var deleteDescription string

const deleteSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The memory's id, e.g. \"m4kd82xq\"."}
  },
  "required": ["id"],
  "additionalProperties": false
}`

func deleteTool() *tools.Tool {
	return tools.DefineVault(tools.Tool{
		Name:        DeleteName,
		Group:       Group,
		Description: strings.TrimSpace(deleteDescription),
		Schema:      json.RawMessage(deleteSchema),
		Safe:        tools.AlwaysSafe,
	}, deleteMemory)
}

type deleteArgs struct {
	ID string `json:"id"`
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
