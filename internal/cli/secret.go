package cli

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"text/tabwriter"
	"time"

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
