package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

func consentText(title, detail string) tools.Consent {
	return tools.Consent{Title: title, Detail: detail}
}

func newMCPToolsCmd(a *App) *cobra.Command {
	var approve bool
	cmd := a.bridgeCommand("tools [SERVER] [--approve [TOOL…]]", "List servers' cached tools; --approve reviews and pins new or changed ones", nil,
		func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
			server := ""
			if len(args) > 0 {
				server = args[0]
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
the server's pending tools when none are named). Nothing else grants them.`
	cmd.Flags().BoolVar(&approve, "approve", false, "show and approve new or changed tools")
	return cmd
}

// approveTools shows each pending tool's diff and pins the ones chosen.
// At a terminal it asks once more; --approve itself is the approval.
func (a *App) approveTools(ctx context.Context, b *bridge.Bridge, server string, names []string) error {
	if _, err := a.store.MCPServer(ctx, server); err != nil {
		return err
	}
	pending, err := b.Pending(ctx, server)
	if err != nil {
		return err
	}
	if len(pending) == 0 {
		fmt.Fprintf(a.Stdout, "no tools of %s await approval\n", server)
		return nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	shown := 0
	for _, p := range pending {
		if len(names) > 0 && !want[p.Tool] {
			continue
		}
		shown++
		// The person pins what they see: every character of the
		// definition is shown, invisible ones as escapes.
		diff := textsafe.Visible(p.Diff)
		fmt.Fprintf(a.Stdout, "%s/%s (%s):\n%s\n", server, textsafe.VisibleLine(p.Tool), p.Kind, diff)
		if diff != p.Diff {
			fmt.Fprintf(a.Stdout, "warning: %s/%s contains control or invisible characters, shown as escapes (<U+E0041>)\n", server, textsafe.VisibleLine(p.Tool))
		}
	}
	if shown == 0 {
		return usageError("none of the named tools await approval; see `tai mcp tools %s`", server)
	}
	if a.interactive() {
		p, _ := a.terminalPerson()
		ok, err := p.(yesNoer).YesNo(ctx, fmt.Sprintf("Approve %d tool(s) of %s?", shown, server), false)
		if err != nil {
			return err
		}
		if !ok {
			return withCode(ExitFailed, fmt.Errorf("nothing approved"))
		}
	}
	approved, err := b.Approve(ctx, server, names...)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "approved %d tool(s) of %s\n", len(approved), server)
	return nil
}
