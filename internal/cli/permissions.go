package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newPermissionsCmd(a *App) *cobra.Command {
	list := func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		p, err := a.Profile(ctx)
		if err != nil {
			return err
		}
		grants, err := a.store.Grants(ctx, p)
		if err != nil {
			return err
		}
		if len(grants) == 0 {
			fmt.Fprintf(a.Stdout, "no standing permissions on profile %s\n", p)
			return nil
		}
		w := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "KIND\tSUBJECT\tGRANTED")
		for _, g := range grants {
			fmt.Fprintf(w, "%s\t%s\t%s\n", g.Kind, textsafe.VisibleLine(g.Subject), time.Unix(g.Created, 0).Format("2006-01-02 15:04"))
		}
		return w.Flush()
	}
	cmd := &cobra.Command{
		Use:   "permissions",
		Short: "List and revoke standing \"always allow\" grants",
		Long: `Answering "always" on a consent screen stores a grant for the tool (or for
every tool of an MCP server) on the current profile; calls it covers no
longer ask. Grants are per profile; a redefined MCP tool loses its grant.`,
		Args: exactArgs(0),
		RunE: list,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the profile's standing grants",
		Args:  exactArgs(0),
		RunE:  list,
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "revoke SUBJECT",
		Short: "Revoke a grant: a tool name, a server name, or tool:NAME / server:NAME",
		Example: `  tai permissions revoke write_file
  tai permissions revoke server:github`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			p, err := a.Profile(ctx)
			if err != nil {
				return err
			}
			kind, subject := "", args[0]
			if k, rest, ok := strings.Cut(subject, ":"); ok && (k == vault.GrantTool || k == vault.GrantServer) {
				kind, subject = k, rest
			}
			if err := a.store.RevokeGrant(ctx, p, kind, subject); err != nil {
				return withCode(ExitFailed, err)
			}
			a.audit(ctx, "grant-revoke", strings.TrimPrefix(kind+":"+subject, ":"), "ok")
			fmt.Fprintf(a.Stdout, "revoked %s on profile %s\n", textsafe.VisibleLine(args[0]), p)
			return nil
		},
	})
	return cmd
}
