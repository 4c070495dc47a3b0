package vaulttools

import (
	"context"
	"fmt"

	"tai/internal/tools"
	"tai/internal/vault"
)

// secretSetConsent names the secret and whether it replaces one; the value
// stays off the screen.
func secretSetConsent(call tools.Call, in secretArgs) tools.Consent {
	verb := "store a new"
	if s, err := call.Env.Vault(); err == nil {
		if _, err := s.SecretInfo(context.Background(), call.Env.Profile, in.Name); err == nil {
			verb = "replace the"
		}
	}
	return tools.Consent{
		Title:  fmt.Sprintf("%s: %s", SecretSetName, in.Name),
		Detail: fmt.Sprintf("%s secret %q in profile %s (the value is not shown)", verb, in.Name, call.Env.Profile),
	}
}

// secretArgs are a secret's name and value; the value is bounded at 64
// KiB: secrets are keys and tokens.
type secretArgs struct {
	nameArgs
	Value string `json:"value" jsonschema:"The secret value, exactly as it should be stored." minLength:"1" maxLength:"65536"`
}

func secretSet(ctx context.Context, s *vault.Store, call tools.Call, in secretArgs) (string, error) {
	if err := vault.ValidSecretName(in.Name); err != nil {
		return "", err
	}
	if err := s.SetSecret(ctx, call.Env.Profile, in.Name, in.Value, nil); err != nil {
		return "", err
	}
	out := fmt.Sprintf("stored secret %s in profile %s; output shows its value as [secret:%s]", in.Name, call.Env.Profile, in.Name)
	if len(in.Value) < 6 {
		out = fmt.Sprintf("stored secret %s in profile %s; it is under 6 characters, too short to be redacted from output", in.Name, call.Env.Profile)
	}
	return out + call.Env.AuditChange(ctx, "secret-set", in.Name), nil
}
