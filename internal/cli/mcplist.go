package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/mcp/bridge"
	"tai/internal/textsafe"
)

func newMCPListCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List registered servers: transport, enabled profiles, tool counts, pin state",
		Long:  "List registered MCP servers. Nothing is started or dialled: the counts come from the vault's cache.",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, _, err := a.mcpSetup(cmd.Context())
			if err != nil {
				return err
			}
			list, err := b.Servers(cmd.Context())
			if err != nil {
				return err
			}
			if *a.mcpJSON {
				if list == nil {
					list = []bridge.ServerInfo{}
				}
				return printJSON(a.Stdout, list)
			}
			fmt.Fprintln(a.Stdout, textsafe.Visible(bridge.FormatServers(list)))
			return nil
		},
	}
}

func newMCPEnableCmd(a *App, on bool) *cobra.Command {
	verb := map[bool]string{true: "enable", false: "disable"}[on]
	return &cobra.Command{
		Use:   verb + " SERVER",
		Short: map[bool]string{true: "Enable a server for the profile (--profile to choose)", false: "Disable a server for the profile"}[on],
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, _, err := a.mcpSetup(cmd.Context())
			if err != nil {
				return err
			}
			if err := b.Enable(cmd.Context(), args[0], on); err != nil {
				return err
			}
			fmt.Fprintf(a.Stdout, "MCP server %s %sd for profile %s\n", args[0], verb, b.Profile)
			return nil
		},
	}
}

func newMCPRemoveCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:     "remove SERVER",
		Aliases: []string{"rm"},
		Short:   "Remove a server with its profile rows, pins, cached tools and tokens (asks first)",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			b, ap, err := a.mcpSetup(ctx)
			if err != nil {
				return err
			}
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
		},
	}
}
