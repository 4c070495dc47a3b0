package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/vault"
)

func newMCPPinsCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("pins SERVER [strict|notify]", "Show or set what a server's changed tool definitions do", cobra.RangeArgs(1, 2), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
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
	})
	cmd.Long = `Every tool a server lists is pinned as you approved it. With the strict
policy (the default) a tool whose definition changes is withheld until you
review the change with tai mcp tools SERVER --approve. With notify, a changed
definition is accepted: the change is shown as a notice with its diff and
written to the audit trail. Use notify only for servers whose definitions
change on every start; new tools stay withheld under either policy.`
	return cmd
}
