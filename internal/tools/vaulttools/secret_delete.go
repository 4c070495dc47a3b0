package vaulttools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed secret_delete.md
var secretDeleteDescription string

var secretDeleteSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {"name": %s},
  "required": ["name"],
  "additionalProperties": false
}`, secretNameSchema)

func secretDeleteTool() *tools.Tool {
	return &tools.Tool{
		Name:        SecretDeleteName,
		Group:       Group,
		Description: strings.TrimSpace(secretDeleteDescription),
		Schema:      json.RawMessage(secretDeleteSchema),
		ConsentIn: func(call tools.Call) tools.Consent {
			var in secretArgs
			_ = json.Unmarshal(call.Args, &in)
			return tools.Consent{Title: fmt.Sprintf("%s: %s", SecretDeleteName, in.Name),
				Detail: fmt.Sprintf("delete secret %q from profile %s; this cannot be undone", in.Name, call.Env.Profile)}
		},
		Run: tools.WithVault(SecretDeleteName, secretDelete),
	}
}

func secretDelete(ctx context.Context, s *vault.Store, call tools.Call) (string, error) {
	var in secretArgs
	if err := json.Unmarshal(call.Args, &in); err != nil {
		return "", fmt.Errorf("arguments: %v", err)
	}
	if err := s.DeleteSecret(ctx, call.Env.Profile, in.Name); err != nil {
		if vault.IsNotFound(err) {
			return "", fmt.Errorf("no secret %q in profile %s; see %s", in.Name, call.Env.Profile, SecretListName)
		}
		return "", err
	}
	out := fmt.Sprintf("deleted secret %s from profile %s", in.Name, call.Env.Profile)
	return out + call.Env.AuditChange(ctx, "secret-rm", in.Name), nil
}
