package cli

import (
	"github.com/spf13/cobra"

	tai "tai"
)

// newRoot builds the command tree for one invocation.
func newRoot(a *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "tai [prompt]",
		Short: "A terminal AI agent that speaks MCP in both directions",
		Long: `tai is a terminal AI agent. Run it with no arguments for an interactive
session, or with a prompt for one turn. It connects to MCP servers you
register (tai mcp add) and serves its own tools over MCP (tai --serve-mcp).`,
		Version:       tai.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runRoot(cmd, args)
		},
	}
	root.SetVersionTemplate("tai {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v; see --help", err) })

	pf := root.PersistentFlags()
	pf.StringVar(&a.flags.home, "home", "", "tai's data directory (default $TAI_HOME, else the XDG data dir)")
	pf.StringVar(&a.flags.profile, "profile", "", "profile to use (default: the current one)")
	pf.StringVar(&a.flags.model, "model", "", "model as provider:model (overrides the profile)")
	pf.BoolVar(&a.flags.auto, "auto", false, "approve tool calls automatically, printing a notice for each")
	pf.BoolVar(&a.flags.yolo, "yolo", false, "approve tool calls silently")
	pf.BoolVar(&a.flags.yes, "yes", false, "approve this command's own consent prompts")
	pf.IntVar(&a.flags.maxSteps, "max-steps", 0, "agent steps per turn (default 25)")
	root.MarkFlagsMutuallyExclusive("auto", "yolo")

	root.AddCommand(
		newSecretCmd(a),
		newVaultCmd(a),
		newProfileCmd(a),
		newAuditCmd(a),
		newRecordCmd(a),
	)
	return root
}

// runRoot is `tai` with no subcommand.
func (a *App) runRoot(cmd *cobra.Command, args []string) error {
	return cmd.Help()
}

// exactArgs is cobra.ExactArgs with a usage error that names the command.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError("%s takes %d argument(s), got %d; see `%s --help`", cmd.CommandPath(), n, len(args), cmd.CommandPath())
		}
		return nil
	}
}
