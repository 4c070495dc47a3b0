// Package profiletools holds the tools over profiles and their settings:
// profile_list, profile_use, config_get and config_set.
//
// Safety (docs/host.md §5): listing and reading are safe. Switching the current
// profile and changing a setting change what tai trusts, so they always
// ask; and neither can raise the approval mode above the host's effective
// one (tools.Env.Approval), whoever approves the call.
package profiletools

import (
	"context"
	"embed"
	"fmt"
	"os"

	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Group is the catalogue group of these tools.
const Group = "profiles"

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// getenv reads the environment for profile resolution (docs/host.md §3).
var getenv = os.Getenv

// hostMode is the host's effective approval mode; an unknown or unset one
// counts as ask, the lowest.
func hostMode(env *tools.Env) string {
	if profile.Validate(profile.KeyApproval, env.Approval) != nil {
		return profile.ApprovalAsk
	}
	return env.Approval
}

// checkNotRaised refuses an approval mode above the host's. what leads
// the message; command is what a person would run instead.
func checkNotRaised(env *tools.Env, mode, what, command string) error {
	if cur := hostMode(env); profile.ApprovalRank(mode) > profile.ApprovalRank(cur) {
		return fmt.Errorf("%s approval %q, above this session's %q; no tool can raise the approval mode (a person can, with `%s`)",
			what, mode, cur, command)
	}
	return nil
}

// storedApproval is the approval mode a profile's own settings give.
func storedApproval(ctx context.Context, s *vault.Store, name string) (string, error) {
	v, ok, err := s.Setting(ctx, name, profile.KeyApproval)
	if err != nil || !ok {
		return profile.ApprovalAsk, err
	}
	return v, nil
}

// Tools returns the profiles group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: Group, Docs: docs}
	return []*tools.Tool{
		tools.DefineVault(group.Tool(ProfileListName, tools.AlwaysSafe), profileList),
		tools.DefineVault(group.Tool(ProfileUseName, nil), profileUse, tools.ConsentBy(profileUseConsent)),
		tools.DefineVault(group.Tool(ConfigGetName, tools.AlwaysSafe), configGet),
		tools.DefineVault(group.Tool(ConfigSetName, nil), configSet, tools.ConsentBy(configSetConsent)),
	}
}

// Tool names.
const (
	ProfileListName = "profile_list"
	ProfileUseName  = "profile_use"
	ConfigGetName   = "config_get"
	ConfigSetName   = "config_set"
)
