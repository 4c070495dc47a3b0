package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	tai "tai"
)

// newRoot builds the whole command tree.
func newRoot(a *App) *cobra.Command {
	return buildRoot(a, func(string) bool { return true })
}

// subcommands are tai's commands under the root, by name.
var subcommands = []struct {
	name  string
	build func(*App) *cobra.Command
}{
	{"secret", newSecretCmd},
	{"vault", newVaultCmd},
	{"profile", newProfileCmd},
	{"audit", newAuditCmd},
	{"record", newRecordCmd},
	{"tools", newToolsCmd},
	{"mcp", newMCPCmd},
	{"sessions", newSessionsCmd},
	{"permissions", newPermissionsCmd},
	{"doctor", newDoctorCmd},
}

// newRootFor is the command tree for the command line args with only the
// subcommands args names: cobra resolves a command line to a subcommand
// only by its name, and building all of them, with their flags and help,
// is a third of a millisecond of every start (docs/benchmarks.md,
// "Start-up"). Help and completion list every command, so for them it is
// the whole tree.
func newRootFor(a *App, args []string) *cobra.Command {
	all := false
	for _, arg := range args {
		all = all || arg == "help" || arg == "-h" || strings.HasPrefix(arg, "--help") || arg == "completion" || strings.HasPrefix(arg, "__complete")
	}
	return buildRoot(a, func(name string) bool { return all || slices.Contains(args, name) })
}

func buildRoot(a *App, want func(name string) bool) *cobra.Command {
	root := &cobra.Command{
		Use:   "tai [prompt]",
		Short: "A terminal AI agent that speaks MCP in both directions",
		Long: `tai is a terminal AI agent. Run it with no arguments for an interactive
session, or with a prompt for one turn. It connects to MCP servers you
register (tai mcp add) and serves its own tools over MCP: tai --serve-mcp KEY
listens on 127.0.0.1:8765 for MCP clients that send Authorization: Bearer KEY.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runRoot(cmd, args)
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v; see --help", err) })

	pf := root.PersistentFlags()
	pf.StringVar(&a.flags.home, "home", "", "tai's data directory (default $TAI_HOME, else the XDG data dir)")
	pf.StringVar(&a.flags.profile, "profile", "", "profile to use (default: the current one)")
	pf.StringVar(&a.flags.model, "model", "", "model as provider:model (overrides the profile)")
	pf.BoolVar(&a.flags.auto, "auto", false, "approve tool calls automatically, printing a notice for each")
	pf.BoolVar(&a.flags.yolo, "yolo", false, "approve tool calls silently")
	pf.BoolVar(&a.flags.yes, "yes", false, "approve this command's own consent prompts")
	pf.IntVar(&a.flags.maxSteps, "max-steps", 0, "agent steps per turn (default 25)")
	pf.StringVar(&a.flags.sandbox, "sandbox", "", "what commands may reach: read-only, workspace-write (the default) or off")
	root.MarkFlagsMutuallyExclusive("auto", "yolo")

	lf := root.Flags()
	lf.StringVarP(&a.flags.print, "print", "p", "", "run one turn with this prompt and print the answer")
	// tai's own --version rather than cobra's: cobra's prints through a
	// text/template parsed at that moment, and needs the description
	// (build information) at every start (docs/benchmarks.md, "Start-up").
	lf.BoolVarP(&a.flags.version, "version", "v", false, "version for tai")
	lf.BoolVar(&a.flags.json, "json", false, "with a prompt: print one JSON event a line")
	lf.BoolVar(&a.flags.continue_, "continue", false, "continue the last conversation of this profile and directory")
	lf.StringArrayVar(&a.flags.addDirs, "add-dir", nil, "a further `DIR` whose files tools may read without asking (repeatable)")
	lf.StringVar(&a.flags.resume, "resume", "", "resume the conversation with this `ID` (see tai sessions)")
	root.MarkFlagsMutuallyExclusive("continue", "resume")
	addServeFlags(root, &a.serve)

	for _, c := range subcommands {
		if want(c.name) {
			root.AddCommand(c.build(a))
		}
	}
	return root
}

// runRoot is `tai` with no subcommand: one turn when there is a prompt
// (arguments, -p, or piped stdin), else the interactive REPL.
func (a *App) runRoot(cmd *cobra.Command, args []string) error {
	ctx := cmd.Context()
	if a.flags.version {
		_, err := fmt.Fprintln(cmd.OutOrStdout(), "tai "+tai.Describe())
		return err
	}
	if cmd.Flags().Changed("serve-mcp") {
		return a.serveMCP(cmd, args)
	}
	for _, f := range []string{"mcp-port", "mcp-bind", "mcp-allow-origin"} {
		if cmd.Flags().Changed(f) {
			return usageError("--%s needs --serve-mcp KEY", f)
		}
	}
	prompt := strings.TrimSpace(strings.Join(append([]string{a.flags.print}, args...), " "))
	o := chatOptions{Continue: a.flags.continue_, Resume: a.flags.resume, Notices: agentNotices(a)}
	if !a.interactive() {
		b, err := io.ReadAll(io.LimitReader(a.Stdin, maxPipedPrompt+1))
		if err != nil {
			return err
		}
		if len(b) > maxPipedPrompt {
			return usageError("the input on stdin is over %d MiB; pass a file path in the prompt instead", maxPipedPrompt>>20)
		}
		if piped := strings.TrimSpace(string(b)); piped != "" {
			if prompt != "" {
				prompt += "\n\n"
			}
			prompt += piped
		}
		if prompt == "" {
			return usageError("no prompt: pass one as an argument, with -p, or on stdin")
		}
		return a.oneShot(ctx, prompt, o)
	}
	o.Person, o.Prompter = a.terminalPerson()
	if prompt != "" {
		return a.oneShot(ctx, prompt, o)
	}
	if a.flags.json {
		return usageError("--json needs a prompt")
	}
	return a.runREPL(ctx, o)
}

// maxPipedPrompt bounds a prompt read from stdin.
const maxPipedPrompt = 8 << 20

// exactArgs is cobra.ExactArgs with a usage error that names the command.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError("%s takes %d argument(s), got %d; see `%s --help`", cmd.CommandPath(), n, len(args), cmd.CommandPath())
		}
		return nil
	}
}
