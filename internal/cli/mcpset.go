package cli

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
)

func newMCPSetCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("set SERVER [KEY=VALUE…]", "Show or change a server's settings (log_level, roots, timeout, startup_timeout)", cobra.MinimumNArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
		set := map[string]string{}
		for _, kv := range args[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return usageError("%q: write KEY=VALUE, like log_level=info", kv)
			}
			set[k] = v
		}
		if len(set) > 0 {
			err := b.Set(ctx, args[0], set)
			var se *bridge.SettingError
			if errors.As(err, &se) {
				return usageError("%s", se.Msg)
			}
			if err != nil {
				return withCode(ExitUsage, err)
			}
		}
		s, err := b.SettingsOf(ctx, args[0])
		if err != nil {
			return withCode(ExitUsage, err)
		}
		if *a.mcpJSON {
			return printJSON(a.Stdout, s)
		}
		keys := make([]string, 0, len(s))
		for k := range s {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(a.Stdout, "%s=%s\n", k, s[k])
		}
		return nil
	})
	cmd.Long = `Settings of one server, kept in the vault and used from its next start:

  log_level=LEVEL   the least severe log line tai asks the server for:
                    debug, info, notice, warning (the default), error,
                    critical, alert or emergency; tai mcp logs shows them
  roots=on|off      whether the server is told of the workspace (the
                    working directory and each --add-dir); on by default
  timeout=DURATION  the server's own limit on each request, in place of
                    MCP_CALL_TIMEOUT (60s): 90s, 2m or a number of
                    seconds, from 1s to MCP_CALL_MAX_TOTAL (3600s); with
                    progress it is the longest silence between reports
  startup_timeout=DURATION
                    the server's own limit on a start plus handshake, in
                    place of MCP_CONNECT_TIMEOUT (20s), from 1s to
                    MCP_MAX_STARTUP (600s)

A pasted tool_timeout_sec or timeout, or startup_timeout_sec or
startup_timeout_ms, sets these at registration. default, or the default
value, removes a setting.

Without KEY=VALUE it shows the settings. Each change is audited (mcp-set).`
	cmd.Example = `  tai mcp set everything log_level=info
  tai mcp set filesystem roots=off
  tai mcp set github timeout=5m startup_timeout=default`
	return cmd
}
