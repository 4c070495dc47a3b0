package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/textsafe"
)

func newMCPListCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("list", "List registered servers: transport, enabled profiles, tool counts, pin state", exactArgs(0),
		func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, _ []string) error {
			list, err := b.Servers(ctx)
			if err != nil {
				return err
			}
			return printMCP(a, list, bridge.FormatServers)
		})
	cmd.Long = "List registered MCP servers. Nothing is started or dialled: the counts come from the vault's cache."
	return cmd
}

func newMCPEnableCmd(a *App, on bool) *cobra.Command {
	verb := map[bool]string{true: "enable", false: "disable"}[on]
	short := map[bool]string{true: "Enable a server for the profile (--profile to choose)", false: "Disable a server for the profile"}[on]
	return a.bridgeCommand(verb+" SERVER", short, exactArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
		if err := b.Enable(ctx, args[0], on); err != nil {
			return err
		}
		fmt.Fprintf(a.Stdout, "MCP server %s %sd for profile %s\n", args[0], verb, b.Profile)
		return nil
	})
}

func newMCPRemoveCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("remove SERVER", "Remove a server with its profile rows, pins, cached tools and tokens (asks first)", exactArgs(1),
		func(ctx context.Context, b *bridge.Bridge, ap *agent.Approver, args []string) error {
			if _, err := a.store.MCPServer(ctx, args[0]); err != nil {
				return err
			}
			v, err := ap.Confirm(ctx, consentText("remove MCP server "+args[0],
				"its profile rows, pins, cached tools, grants and login tokens are deleted"))
			if err != nil {
				return err
			}
			if !v.Allowed {
				return withCode(ExitFailed, fmt.Errorf("not removed: %s (add --yes to confirm)", v.Reason))
			}
			if err := b.Remove(ctx, args[0]); err != nil {
				return err
			}
			fmt.Fprintf(a.Stdout, "removed MCP server %s\n", args[0])
			return nil
		})
	cmd.Aliases = []string{"rm"}
	return cmd
}

// printMCP prints list as JSON under --json (none as []), else as format
// renders it, made safe for the terminal.
func printMCP[T any](a *App, list []T, format func([]T) string) error {
	if *a.mcpJSON {
		if list == nil {
			list = []T{}
		}
		return printJSON(a.Stdout, list)
	}
	fmt.Fprintln(a.Stdout, textsafe.Visible(format(list)))
	return nil
}
