package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/vault"
)

func consentText(title, detail string) tools.Consent {
	return tools.Consent{Title: title, Detail: detail}
}

func newMCPToolsCmd(a *App) *cobra.Command {
	var approve, disable, enable bool
	cmd := a.bridgeCommand("tools [SERVER] [--approve [TOOL…] | --disable TOOL… | --enable TOOL…]",
		"List servers' cached tools; --approve reviews and pins new or changed ones; --disable and --enable choose what the profile offers", nil,
		func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
			server := ""
			if len(args) > 0 {
				server = args[0]
			}
			if disable || enable {
				if approve || (disable && enable) {
					return usageError("use one of --approve, --disable and --enable")
				}
				return a.filterTools(ctx, b, enable, args)
			}
			if approve {
				if server == "" {
					return usageError("--approve needs a SERVER: tai mcp tools SERVER --approve [TOOL…]")
				}
				return a.approveTools(ctx, b, server, args[1:])
			}
			if len(args) > 1 {
				return usageError("tai mcp tools takes at most one SERVER")
			}
			list, err := b.ServerTools(ctx, server)
			if err != nil {
				return err
			}
			return printMCP(a, list, bridge.FormatTools)
		})
	cmd.Long = `List the cached tools of one server (or all) with their tai names and state.
A tool that is new, or whose name, description or schema changed since it
was approved, is withheld from the agent. --approve shows what changed
(a diff against the approved definition) and pins the tools named (all of
the server's pending tools when none are named). Nothing else grants them.

--disable TOOL… withholds the tools named from the profile (--profile): the
model is neither offered them nor can call them, and tai mcp call refuses
them. --enable TOOL… offers them again, also those the server's pasted
enabled_tools/disabled_tools (includeTools/excludeTools) leave out. A TOOL
may be a pattern (create_*) standing for the cached tools it matches; a
name the server does not list changes nothing.`
	cmd.Flags().BoolVar(&approve, "approve", false, "show and approve new or changed tools")
	cmd.Flags().BoolVar(&disable, "disable", false, "withhold the tools named from the profile")
	cmd.Flags().BoolVar(&enable, "enable", false, "offer the tools named to the profile again")
	return cmd
}

// filterTools withholds (or offers again) the tools named in args[1:] of
// server args[0] for the bridge's profile.
func (a *App) filterTools(ctx context.Context, b *bridge.Bridge, on bool, args []string) error {
	verb := map[bool]string{true: "enable", false: "disable"}[on]
	if len(args) < 2 {
		return usageError("name the tools: tai mcp tools SERVER --%s TOOL…", verb)
	}
	changed, err := b.SetFilter(ctx, args[0], vault.FilterTool, args[1:], on)
	if err != nil {
		return err
	}
	if *a.mcpJSON {
		list, err := b.ServerTools(ctx, args[0])
		if err != nil {
			return err
		}
		return printMCP(a, list, bridge.FormatTools)
	}
	fmt.Fprintf(a.Stdout, "%sd %d tool(s) of %s for profile %s: %s\n", verb, len(changed), args[0], b.Profile,
		textsafe.VisibleLine(strings.Join(changed, ", ")))
	return nil
}

// approveTools shows each pending tool's diff and pins the ones chosen.
func (a *App) approveTools(ctx context.Context, b *bridge.Bridge, server string, names []string) error {
	if _, err := a.store.MCPServer(ctx, server); err != nil {
		return err
	}
	pending, err := b.Pending(ctx, server)
	if err != nil {
		return err
	}
	var items []review
	for _, p := range pending {
		items = append(items, review{Name: p.Tool, Kind: p.Kind, Diff: p.Diff})
	}
	return a.approve(ctx, "tool", "tools", server, names, items, func() ([]string, error) {
		return b.Approve(ctx, server, names...)
	})
}

// review is one withheld item (a tool or a prompt) shown for approval.
type review struct{ Name, Kind, Diff string }

// approve shows each pending item's diff (all of them, or those named)
// and pins them with pin. At a terminal it asks once more; --approve
// itself is the approval. what names the kind of item, command the tai
// mcp subcommand that lists them.
func (a *App) approve(ctx context.Context, what, command, server string, names []string, pending []review, pin func() ([]string, error)) error {
	if len(pending) == 0 {
		fmt.Fprintf(a.Stdout, "no %ss of %s await approval\n", what, server)
		return nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	shown := 0
	for _, p := range pending {
		if len(names) > 0 && !want[p.Name] {
			continue
		}
		shown++
		// The person pins what they see: every character of the
		// definition is shown, invisible ones as escapes.
		diff := textsafe.Visible(p.Diff)
		fmt.Fprintf(a.Stdout, "%s/%s (%s):\n%s\n", server, textsafe.VisibleLine(p.Name), p.Kind, diff)
		if diff != p.Diff {
			fmt.Fprintf(a.Stdout, "warning: %s/%s contains control or invisible characters, shown as escapes (<U+E0041>)\n", server, textsafe.VisibleLine(p.Name))
		}
	}
	if shown == 0 {
		return usageError("none of the named %ss await approval; see `tai mcp %s %s`", what, command, server)
	}
	if a.interactive() {
		p, _ := a.terminalPerson()
		ok, err := p.(yesNoer).YesNo(ctx, fmt.Sprintf("Approve %d %s(s) of %s?", shown, what, server), false)
		if err != nil {
			return err
		}
		if !ok {
			return withCode(ExitFailed, fmt.Errorf("nothing approved"))
		}
	}
	approved, err := pin()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "approved %d %s(s) of %s\n", len(approved), what, server)
	return nil
}
