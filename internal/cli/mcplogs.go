package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/textsafe"
	"tai/internal/vault"
)

// logsPoll is how often tai mcp logs --follow looks for new lines.
const logsPoll = 250 * time.Millisecond

func newMCPLogsCmd(a *App) *cobra.Command {
	var follow bool
	cmd := a.bridgeCommand("logs SERVER", "Show what a server logged (--follow to keep watching)", cobra.ExactArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
		server := args[0]
		if _, err := b.Store.MCPServer(ctx, server); err != nil {
			return withCode(ExitUsage, err)
		}
		show := a.logPrinter()
		last, err := a.printLogs(ctx, b.Store, server, 0, show)
		if err != nil || !follow {
			return err
		}
		tick := time.NewTicker(logsPoll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
			}
			if last, err = a.printLogs(ctx, b.Store, server, last, show); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
		}
	})
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new lines as the server logs them, until Ctrl-C")
	cmd.Long = `The lines a server logged (notifications/message) while tai was connected
to it, oldest first: the last MCP_MAX_LOG_LINES of each server, redacted,
each cut at MCP_LOG_LINE_MAX. tai asks for lines at warning and above
unless tai mcp set SERVER log_level=LEVEL says otherwise. --follow keeps
printing new lines, from any tai using the vault, until Ctrl-C; --json
prints one object a line.`
	return cmd
}

// printLogs prints server's lines after id after and returns the last id
// printed (after when none).
func (a *App) printLogs(ctx context.Context, store *vault.Store, server string, after int64, show func(vault.MCPLogLine)) (int64, error) {
	for {
		lines, err := store.MCPLogs(ctx, server, after, 500)
		if err != nil {
			return after, err
		}
		for _, l := range lines {
			show(l)
			after = l.ID
		}
		if len(lines) < 500 {
			return after, nil
		}
	}
}

// logPrinter prints a line as JSON with --json, else as one visible line.
func (a *App) logPrinter() func(vault.MCPLogLine) {
	if *a.mcpJSON {
		enc := json.NewEncoder(a.Stdout)
		return func(l vault.MCPLogLine) { enc.Encode(l) }
	}
	return func(l vault.MCPLogLine) {
		logger := ""
		if l.Logger != "" {
			logger = " " + textsafe.VisibleLine(l.Logger) + ":"
		}
		fmt.Fprintf(a.Stdout, "%s %-7s%s %s\n", l.At.Local().Format("2006-01-02 15:04:05"), textsafe.VisibleLine(l.Level), logger, textsafe.VisibleLine(l.Text))
	}
}
