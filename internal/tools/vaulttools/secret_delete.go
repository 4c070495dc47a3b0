package vaulttools

import (
	"context"
	"fmt"

	"tai/internal/tools"
	"tai/internal/vault"
)

func secretDeleteConsent(call tools.Call, in nameArgs) tools.Consent {
	return tools.Consent{Title: fmt.Sprintf("%s: %s", SecretDeleteName, in.Name),
		Detail: fmt.Sprintf("delete secret %q from profile %s; this cannot be undone", in.Name, call.Env.Profile)}
}

// nameArgs names one secret; its pattern is vault.SecretRE.
type nameArgs struct {
	Name string `json:"name" jsonschema:"The secret's name: a letter or digit, then letters, digits, '_', '.' or '-'; at most 128, e.g. \"GITHUB_TOKEN\"." pattern:"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"`
}

func secretDelete(ctx context.Context, s *vault.Store, call tools.Call, in nameArgs) (string, error) {
	if err := s.DeleteSecret(ctx, call.Env.Profile, in.Name); err != nil {
		if vault.IsNotFound(err) {
			return "", fmt.Errorf("no secret %q in profile %s; see %s", in.Name, call.Env.Profile, SecretListName)
		}
		return "", err
	}
	out := fmt.Sprintf("deleted secret %s from profile %s", in.Name, call.Env.Profile)
	return out + call.Env.AuditChange(ctx, "secret-rm", in.Name), nil
}
