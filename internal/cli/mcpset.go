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
	cmd := a.bridgeCommand("set SERVER [KEY=VALUE…]", "Show or change a server's settings (log_level, roots)", cobra.MinimumNArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
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

Without KEY=VALUE it shows the settings. Each change is audited (mcp-set).`
	cmd.Example = `  tai mcp set everything log_level=info
  tai mcp set filesystem roots=off`
	return cmd
}
