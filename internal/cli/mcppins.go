package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/vault"
)

func newMCPPinsCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "pins SERVER [strict|notify]",
		Short: "Show or set what a server's changed tool definitions do",
		Long: `Every tool a server lists is pinned as you approved it. With the strict
policy (the default) a tool whose definition changes is withheld until you
review the change with tai mcp tools SERVER --approve. With notify, a changed
definition is accepted: the change is shown as a notice with its diff and
written to the audit trail. Use notify only for servers whose definitions
change on every start; new tools stay withheld under either policy.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			b, _, err := a.mcpSetup(ctx)
			if err != nil {
				return err
			}
			defer b.Close()
			if len(args) == 1 {
				srv, err := b.Store.MCPServer(ctx, args[0])
				if err != nil {
					return withCode(ExitUsage, err)
				}
				fmt.Fprintf(a.Stdout, "MCP server %s: pin policy %s\n", srv.Name, srv.PinPolicy)
				return nil
			}
			if args[1] != vault.PinStrict && args[1] != vault.PinNotify {
				return usageError("pin policy %q: write strict or notify", args[1])
			}
			if err := b.SetPinPolicy(ctx, args[0], args[1]); err != nil {
				return withCode(ExitUsage, err)
			}
			fmt.Fprintf(a.Stdout, "MCP server %s: pin policy %s\n", args[0], args[1])
			return nil
		},
	}
}
