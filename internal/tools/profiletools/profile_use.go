package profiletools

import (
	"context"
	"fmt"

	"tai/internal/tools"
	"tai/internal/vault"
)

func profileUseConsent(call tools.Call, in useArgs) tools.Consent {
	name := in.Name
	c := tools.Consent{Title: fmt.Sprintf("%s: %s", ProfileUseName, name),
		Detail: fmt.Sprintf("make %q the current profile: new tai runs use its settings, secrets, grants and MCP servers", name)}
	if s, err := call.Env.Vault(); err == nil {
		if cur, err := s.CurrentProfile(context.Background()); err == nil {
			c.Detail += fmt.Sprintf(" (current now: %s)", cur)
		}
	}
	return c
}

type useArgs struct {
	Name string `json:"name" jsonschema:"The profile, as profile_list names it." pattern:"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"`
}

func profileUse(ctx context.Context, s *vault.Store, call tools.Call, in useArgs) (string, error) {
	name := in.Name
	ok, err := s.ProfileExists(ctx, name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("no profile %q; see %s (a person creates profiles with `tai profile create %s`)", name, ProfileListName, name)
	}
	mode, err := storedApproval(ctx, s, name)
	if err != nil {
		return "", err
	}
	if err := checkNotRaised(call.Env, mode, fmt.Sprintf("profile %s has", name), "tai profile use "+name); err != nil {
		return "", err
	}
	cur, err := s.CurrentProfile(ctx)
	if err != nil {
		return "", err
	}
	if cur == name {
		return fmt.Sprintf("%s is already the current profile", name), nil
	}
	if err := s.UseProfile(ctx, name); err != nil {
		return "", err
	}
	out := fmt.Sprintf("%s is now the current profile (was %s): new tai runs use it; this conversation stays on profile %s",
		name, cur, call.Env.Profile)
	return out + call.Env.AuditChange(ctx, "profile-use", name), nil
}
