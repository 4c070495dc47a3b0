package cli

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newSecretCmd(a *App) *cobra.Command {
	set := a.profileCommand("set NAME", "Store a secret (value from a no-echo prompt or stdin)", 1, a.secretSet)
	set.Example = `  tai secret set GITHUB_TOKEN
  printf %s "$TOKEN" | tai secret set GITHUB_TOKEN`
	rm := a.profileCommand("rm NAME", "Remove a secret", 1, a.secretRm)
	rm.Aliases = []string{"remove", "delete"}
	return parent("secret", "Store, list and remove the profile's secrets", `Secrets belong to a profile and live in the vault. Values are read from a
no-echo prompt or from stdin, never from the command line, and are never
printed. They are sealed at rest once the vault is sealed (tai vault seal).`,
		set, a.profileCommand("list", "List secret names and metadata (never values)", 0, a.secretList), rm)
}

func (a *App) secretSet(ctx context.Context, s *vault.Store, p string, args []string) error {
	name := args[0]
	if err := vault.ValidSecretName(name); err != nil {
		return withCode(ExitUsage, err)
	}
	v, err := a.readSecretValue(name)
	if err != nil {
		return err
	}
	if v == "" {
		return usageError("the value for %s is empty; nothing stored", name)
	}
	if err := s.SetSecret(ctx, p, name, v, nil); err != nil {
		return err
	}
	a.audit(ctx, "secret-set", name, "ok")
	fmt.Fprintf(a.Stdout, "stored secret %s in profile %s\n", name, p)
	return nil
}

func (a *App) secretList(ctx context.Context, s *vault.Store, p string, _ []string) error {
	list, err := s.Secrets(ctx, p)
	if err != nil {
		return err
	}
	return printTable(a.Stdout, "no secrets in profile "+p, "NAME\tSEALED\tUPDATED\tMETA", list, func(si vault.SecretInfo) string {
		return fmt.Sprintf("%s\t%v\t%s\t%s", si.Name, si.Sealed, minute(si.Updated), textsafe.Line(formatMeta(si.Meta)))
	})
}

func (a *App) secretRm(ctx context.Context, s *vault.Store, p string, args []string) error {
	if err := s.DeleteSecret(ctx, p, args[0]); err != nil {
		return err
	}
	a.audit(ctx, "secret-rm", args[0], "ok")
	fmt.Fprintf(a.Stdout, "removed secret %s from profile %s\n", args[0], p)
	return nil
}

func formatMeta(m map[string]string) string {
	if len(m) == 0 {
		return "-"
	}
	out := ""
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if out != "" {
			out += " "
		}
		out += k + "=" + m[k]
	}
	return out
}
