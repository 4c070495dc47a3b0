package cli

import (
	"context"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/vault"
)

// storeCommand is a subcommand over the vault taking n arguments: run gets
// the open store.
func (a *App) storeCommand(use, short string, n int, run func(ctx context.Context, s *vault.Store, args []string) error) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: exactArgs(n), RunE: func(cmd *cobra.Command, args []string) error {
		s, err := a.Store(cmd.Context())
		if err != nil {
			return err
		}
		return run(cmd.Context(), s, args)
	}}
}

// profileCommand is a storeCommand on the profile --profile names, or
// the current one.
func (a *App) profileCommand(use, short string, n int, run func(ctx context.Context, s *vault.Store, profile string, args []string) error) *cobra.Command {
	return a.storeCommand(use, short, n, func(ctx context.Context, s *vault.Store, args []string) error {
		p, err := a.Profile(ctx)
		if err != nil {
			return err
		}
		return run(ctx, s, p, args)
	})
}

// parent is a command that only groups its subcommands.
func parent(use, short, long string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Long: long}
	cmd.AddCommand(subs...)
	return cmd
}

// bridgeCommand is a subcommand over the profile's MCP servers: run gets
// the bridge, closed after it, and the approver its questions go through.
func (a *App) bridgeCommand(use, short string, args cobra.PositionalArgs, run func(ctx context.Context, b *bridge.Bridge, ap *agent.Approver, args []string) error) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: args, RunE: func(cmd *cobra.Command, args []string) error {
		b, ap, err := a.mcpSetup(cmd.Context())
		if err != nil {
			return err
		}
		defer b.Close()
		return run(cmd.Context(), b, ap, args)
	}}
}
