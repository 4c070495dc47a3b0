package cli

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newSecretCmd(a *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "secret",
		Short: "Store, list and remove the profile's secrets",
		Long: `Secrets belong to a profile and live in the vault. Values are read from a
no-echo prompt or from stdin, never from the command line, and are never
printed. They are sealed at rest once the vault is sealed (tai vault seal).`,
	}
	cmd.AddCommand(newSecretSetCmd(a))
	cmd.AddCommand(newSecretListCmd(a))
	cmd.AddCommand(newSecretRmCmd(a))
	return cmd
}

func newSecretSetCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "set NAME",
		Short: "Store a secret (value from a no-echo prompt or stdin)",
		Example: `  tai secret set GITHUB_TOKEN
  printf %s "$TOKEN" | tai secret set GITHUB_TOKEN`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := vault.ValidSecretName(name); err != nil {
				return withCode(ExitUsage, err)
			}
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			p, err := a.Profile(cmd.Context())
			if err != nil {
				return err
			}
			v, err := a.readSecretValue(name)
			if err != nil {
				return err
			}
			if v == "" {
				return usageError("the value for %s is empty; nothing stored", name)
			}
			if err := s.SetSecret(cmd.Context(), p, name, v, nil); err != nil {
				return err
			}
			a.audit(cmd.Context(), "secret-set", name, "ok")
			fmt.Fprintf(a.Stdout, "stored secret %s in profile %s\n", name, p)
			return nil
		},
	}
}

func newSecretListCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List secret names and metadata (never values)",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			p, err := a.Profile(cmd.Context())
			if err != nil {
				return err
			}
			list, err := s.Secrets(cmd.Context(), p)
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintf(a.Stdout, "no secrets in profile %s\n", p)
				return nil
			}
			w := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tSEALED\tUPDATED\tMETA")
			for _, si := range list {
				fmt.Fprintf(w, "%s\t%v\t%s\t%s\n", si.Name, si.Sealed,
					time.Unix(si.Updated, 0).Format("2006-01-02 15:04"), textsafe.Line(formatMeta(si.Meta)))
			}
			return w.Flush()
		},
	}
}

func newSecretRmCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:     "rm NAME",
		Aliases: []string{"remove", "delete"},
		Short:   "Remove a secret",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			p, err := a.Profile(cmd.Context())
			if err != nil {
				return err
			}
			if err := s.DeleteSecret(cmd.Context(), p, args[0]); err != nil {
				return err
			}
			a.audit(cmd.Context(), "secret-rm", args[0], "ok")
			fmt.Fprintf(a.Stdout, "removed secret %s from profile %s\n", args[0], p)
			return nil
		},
	}
}

func formatMeta(m map[string]string) string {
	if len(m) == 0 {
		return "-"
	}
	out := ""
	for _, k := range sortedKeys(m) {
		if out != "" {
			out += " "
		}
		out += k + "=" + m[k]
	}
	return out
}
