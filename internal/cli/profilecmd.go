package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tai/internal/profile"
	"tai/internal/textsafe"
)

func newProfileCmd(a *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "List, create, switch and inspect profiles",
		Long: `A profile is a named set of settings (model, base URL, approval mode, step
cap, system prompt addition) plus its secrets and MCP enablement. The
profile "default" always exists. Values resolve in this order: built-in
defaults, the profile's settings, the environment, then flags.`,
	}
	cmd.AddCommand(newProfileListCmd(a))
	cmd.AddCommand(newProfileCreateCmd(a))
	cmd.AddCommand(newProfileUseCmd(a))
	cmd.AddCommand(newProfileShowCmd(a))
	cmd.AddCommand(newProfileSetCmd(a))
	cmd.AddCommand(newProfileUnsetCmd(a))
	return cmd
}

func newProfileListCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List profiles; * marks the current one",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			ps, err := s.Profiles(cmd.Context())
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
		},
	}
}

func newProfileCreateCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "create NAME",
		Short: "Create a profile",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			if err := s.CreateProfile(cmd.Context(), args[0]); err != nil {
				return withCode(ExitFailed, err)
			}
			fmt.Fprintf(a.Stdout, "created profile %s; switch to it with `tai profile use %s`\n", args[0], args[0])
			return nil
		},
	}
}

func newProfileUseCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make a profile the current one",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			if err := s.UseProfile(cmd.Context(), args[0]); err != nil {
				return err
			}
			a.audit(cmd.Context(), "profile-use", args[0], "ok")
			fmt.Fprintf(a.Stdout, "now using profile %s\n", args[0])
			return nil
		},
	}
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

func newProfileSetCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Set one of the profile's settings",
		Long:  "Set one of the profile's settings. Keys: " + keyHelp(),
		Args:  exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := profile.Validate(args[0], args[1]); err != nil {
				return withCode(ExitUsage, err)
			}
			p, err := a.Profile(cmd.Context())
			if err != nil {
				return err
			}
			if err := a.store.SetSetting(cmd.Context(), p, args[0], args[1]); err != nil {
				return err
			}
			a.audit(cmd.Context(), "setting-set", args[0], "ok")
			fmt.Fprintf(a.Stdout, "set %s in profile %s\n", args[0], p)
			return nil
		},
	}
}

func newProfileUnsetCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "unset KEY",
		Short: "Remove one of the profile's settings (back to the default)",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, ok := profile.LookupKey(args[0]); !ok {
				return withCode(ExitUsage, profile.Validate(args[0], ""))
			}
			p, err := a.Profile(cmd.Context())
			if err != nil {
				return err
			}
			if err := a.store.DeleteSetting(cmd.Context(), p, args[0]); err != nil {
				return err
			}
			a.audit(cmd.Context(), "setting-unset", args[0], "ok")
			fmt.Fprintf(a.Stdout, "unset %s in profile %s\n", args[0], p)
			return nil
		},
	}
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
