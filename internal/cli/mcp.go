package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/config"
	"tai/internal/profile"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

func newMCPCmd(a *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Register, inspect and call MCP servers",
		Long: `tai bridges the tools of the MCP servers you register into its agent.
Paste a config from anywhere (Claude Desktop, Cursor, VS Code, Gemini,
Codex TOML, .mcp.json), a URL or a GitHub link: tai shows exactly what will
run, connects once to list the tools, pins their definitions and stores the
server in the vault. Servers are disabled until enabled for a profile, and
start only when one of their tools is first called.`,
	}
	var mcpJSON bool
	cmd.PersistentFlags().BoolVar(&mcpJSON, "json", false, "print JSON")
	a.mcpJSON = &mcpJSON
	cmd.AddCommand(newMCPAddCmd(a), newMCPListCmd(a), newMCPEnableCmd(a, true), newMCPEnableCmd(a, false),
		newMCPRemoveCmd(a), newMCPToolsCmd(a), newMCPCallCmd(a), newMCPImportCmd(a), newMCPLoginCmd(a), newMCPPinsCmd(a),
		newMCPPromptsCmd(a), newMCPPromptCmd(a), newMCPResourcesCmd(a), newMCPReadCmd(a),
		newMCPSetCmd(a), newMCPLogsCmd(a))
	return cmd
}

// mcpSetup opens the vault, resolves the profile and builds the bridge and
// the approval policy for this command: the profile's mode, or auto for
// this command alone with --yes.
func (a *App) mcpSetup(ctx context.Context) (*bridge.Bridge, *agent.Approver, error) {
	cfg, err := a.Config(ctx)
	if err != nil {
		return nil, nil, err
	}
	mode := cfg.Approval()
	if a.flags.yes && profile.ApprovalRank(mode) < profile.ApprovalRank(profile.ApprovalAuto) {
		mode = profile.ApprovalAuto
	}
	ap := &agent.Approver{Mode: mode, Store: a.store, Profile: cfg.Profile, Notices: agentNotices(a), DeniedHost: a.deniedHost()}
	if a.interactive() {
		ap.Person, _ = a.terminalPerson()
	}
	b := a.newBridge(cfg.Profile, ap)
	a.answerSampling(b, samplingHost{cfg: cfg, mode: mode, person: ap.Person, notices: ap.Notices})
	return b, ap, nil
}

// registerConsent asks to register each server and whether to enable it.
func (a *App) registerConsent(ap *agent.Approver, enable bool) bridge.RegisterConsent {
	return func(ctx context.Context, c tools.Consent, offerEnable bool) (bool, bool, error) {
		v, err := ap.Confirm(ctx, c)
		if err != nil || !v.Allowed {
			if err == nil && ap.Person == nil && ap.Mode == profile.ApprovalAsk {
				err = errors.New("registering an MCP server needs approval: run in a terminal or add --yes")
			}
			return false, false, err
		}
		if enable || !offerEnable || ap.Person == nil {
			return true, enable, nil
		}
		p, ok := ap.Person.(yesNoer)
		if !ok {
			return true, false, nil
		}
		yes, err := p.YesNo(ctx, fmt.Sprintf("Enable it for profile %s now?", ap.Profile), true)
		return true, yes, err
	}
}

// yesNoer asks a yes/no question of the person at the terminal.
type yesNoer interface {
	YesNo(ctx context.Context, question string, def bool) (bool, error)
}

func newMCPAddCmd(a *App) *cobra.Command {
	var name, pins string
	var enable bool
	var oc clientFlags
	cmd := &cobra.Command{
		Use:   "add [--name NAME] SOURCE | NAME -- COMMAND [ARGS…]",
		Short: "Register MCP servers from a pasted config, a URL, a GitHub link or a command",
		Long: `Register MCP servers. SOURCE is a JSON config (with an mcpServers or
servers wrapper, or one bare entry), Codex TOML ([mcp_servers.NAME]), an
https URL, a GitHub repository link, or a stored server's name (to verify it
again). Use - to read SOURCE from stdin. After -- comes a command line to run
as a stdio server. tai shows what will run and asks before connecting.`,
		Example: `  tai mcp add '{"mcpServers":{"memory":{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}}}'
  tai mcp add memory -- npx -y @modelcontextprotocol/server-memory
  tai mcp add --name docs https://example.com/mcp
  tai mcp add https://github.com/modelcontextprotocol/servers/tree/main/src/memory
  pbpaste | tai mcp add -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if oc.secretStdin && (len(args) == 0 || args[0] == "-") {
				return usageError("--client-secret-stdin reads the secret from stdin: give SOURCE as the argument, not on stdin")
			}
			client, err := oc.read(bufio.NewReader(a.Stdin))
			if err != nil {
				return err
			}
			req, err := a.addRequest(cmd, args, name)
			if err != nil {
				return err
			}
			req.Enable, req.PinPolicy, req.OAuth = enable, pins, client
			b, ap, err := a.mcpSetup(ctx)
			if err != nil {
				return err
			}
			defer b.Close()
			runner := agent.Lazy(func() (*agent.Agent, error) {
				return a.chatAgent(ctx, chatOptions{Person: ap.Person, Notices: ap.Notices})
			})
			defer runner.Close()
			b.Subagents = runner.Runner
			added, err := b.Add(ctx, req, a.registerConsent(ap, enable), b.GitHub(nil))
			if out := bridge.FormatAdded(added, b.Profile); out != "" {
				fmt.Fprintln(a.Stdout, textsafe.Visible(out))
			}
			if err != nil {
				return withCode(ExitUsage, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "name for the server; with a paste of several, the ones to add (comma-separated)")
	cmd.Flags().BoolVar(&enable, "enable", false, "enable the server for the profile without asking")
	cmd.Flags().StringVar(&pins, "pins", "", "pin policy: strict (default: a changed tool is withheld until approved) or notify (accepted, with a notice)")
	oc.register(cmd)
	return cmd
}

// addRequest reads what to register from the arguments or stdin.
func (a *App) addRequest(cmd *cobra.Command, args []string, name string) (bridge.AddRequest, error) {
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		before, argv := args[:dash], args[dash:]
		switch {
		case len(before) == 1 && name == "":
			name = before[0]
		case len(before) == 0 && name != "":
		default:
			return bridge.AddRequest{}, usageError("write `tai mcp add NAME -- COMMAND [ARGS…]` (or --name NAME -- COMMAND …)")
		}
		e, err := config.Explicit(name, argv)
		if err != nil {
			return bridge.AddRequest{}, withCode(ExitUsage, err)
		}
		return bridge.AddRequest{Entries: []config.Entry{e}}, nil
	}
	var src string
	switch {
	case len(args) == 1 && args[0] != "-":
		src = args[0]
	case len(args) == 1 || len(args) == 0 && !a.interactive():
		b, err := io.ReadAll(io.LimitReader(a.Stdin, config.MaxInput+1))
		if err != nil {
			return bridge.AddRequest{}, err
		}
		src = string(b)
	case len(args) == 0:
		return bridge.AddRequest{}, usageError("nothing to add: paste a config, a URL or a GitHub link as the argument, or use - for stdin")
	default:
		return bridge.AddRequest{}, usageError("tai mcp add takes one SOURCE (quote a pasted config), or NAME -- COMMAND [ARGS…]")
	}
	if strings.TrimSpace(src) == "" {
		return bridge.AddRequest{}, usageError("the source is empty: paste a JSON or TOML config, a URL or a GitHub link")
	}
	return bridge.AddRequest{Source: src, Name: name}, nil
}
