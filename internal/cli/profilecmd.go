package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tai/internal/profile"
	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newProfileCmd(a *App) *cobra.Command {
	set := a.profileCommand("set KEY VALUE", "Set one of the profile's settings", 2, a.profileSet)
	set.Long = "Set one of the profile's settings. Keys: " + keyHelp()
	return parent("profile", "List, create, switch and inspect profiles", `A profile is a named set of settings (model, base URL, approval mode, step
cap, system prompt addition) plus its secrets and MCP enablement. The
profile "default" always exists. Values resolve in this order: built-in
defaults, the profile's settings, the environment, then flags.`,
		a.storeCommand("list", "List profiles; * marks the current one", 0, a.profileList),
		a.storeCommand("create NAME", "Create a profile", 1, a.profileCreate),
		a.storeCommand("use NAME", "Make a profile the current one", 1, a.profileUse),
		newProfileShowCmd(a), set,
		a.profileCommand("unset KEY", "Remove one of the profile's settings (back to the default)", 1, a.profileUnset))
}

func (a *App) profileList(ctx context.Context, s *vault.Store, _ []string) error {
	ps, err := s.Profiles(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		mark := " "
		if p.Current {
			mark = "*"
		}
		fmt.Fprintf(a.Stdout, "%s %s\n", mark, p.Name)
	}
	return nil
}

func (a *App) profileCreate(ctx context.Context, s *vault.Store, args []string) error {
	if err := s.CreateProfile(ctx, args[0]); err != nil {
		return withCode(ExitFailed, err)
	}
	fmt.Fprintf(a.Stdout, "created profile %s; switch to it with `tai profile use %s`\n", args[0], args[0])
	return nil
}

func (a *App) profileUse(ctx context.Context, s *vault.Store, args []string) error {
	if err := s.UseProfile(ctx, args[0]); err != nil {
		return err
	}
	a.audit(ctx, "profile-use", args[0], "ok")
	fmt.Fprintf(a.Stdout, "now using profile %s\n", args[0])
	return nil
}

func newProfileShowCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show the resolved configuration and where each value came from",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				a.flags.profile = args[0]
			}
			c, err := a.Config(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(a.Stdout, "profile: %s\n", c.Profile)
			w := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "KEY\tVALUE\tFROM")
			for _, v := range c.Sorted() {
				val := v.Value
				if val == "" {
					val = "-"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\n", v.Key, textsafe.Line(a.store.Redact(val)), v.Source)
			}
			return w.Flush()
		},
	}
}

func (a *App) profileSet(ctx context.Context, s *vault.Store, p string, args []string) error {
	if err := profile.Validate(args[0], args[1]); err != nil {
		return withCode(ExitUsage, err)
	}
	if err := s.SetSetting(ctx, p, args[0], args[1]); err != nil {
		return err
	}
	a.audit(ctx, "setting-set", args[0], "ok")
	fmt.Fprintf(a.Stdout, "set %s in profile %s\n", args[0], p)
	return nil
}

func (a *App) profileUnset(ctx context.Context, s *vault.Store, p string, args []string) error {
	if _, ok := profile.LookupKey(args[0]); !ok {
		return withCode(ExitUsage, profile.Validate(args[0], ""))
	}
	if err := s.DeleteSetting(ctx, p, args[0]); err != nil {
		return err
	}
	a.audit(ctx, "setting-unset", args[0], "ok")
	fmt.Fprintf(a.Stdout, "unset %s in profile %s\n", args[0], p)
	return nil
}

func keyHelp() string {
	out := ""
	for i, k := range profile.Keys {
		if i > 0 {
			out += "; "
		}
		out += k.Name + " (" + k.Help + ")"
	}
	return out
}
