package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/mcp/bridge"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

func newMCPCallCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "call SERVER TOOL [JSON]",
		Short: "Call one tool of a server (exit 1 when the tool reports an error, 2 on a protocol failure)",
		Long: `Call one tool of a registered, enabled server, with its arguments as a JSON
object. The call asks approval like any tool that changes things (--yes,
--auto or --yolo approve it). Exit status: 0 success, 1 the tool ran and
reported an error (isError), 2 a usage, protocol or transport failure.`,
		Example: `  tai mcp call everything echo '{"message":"hi"}'`,
		Args:    cobra.RangeArgs(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			raw := json.RawMessage("{}")
			if len(args) == 3 {
				raw = json.RawMessage(args[2])
				var obj map[string]any
				if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
					return usageError("the arguments must be a JSON object, like '{\"message\":\"hi\"}'")
				}
			}
			b, ap, err := a.mcpSetup(ctx)
			if err != nil {
				return err
			}
			defer b.Close()
			t := b.BridgedTool(ctx, args[0], args[1])
			v, err := ap.Approve(ctx, t, tools.Call{Args: raw})
			if err != nil {
				return err
			}
			if !v.Allowed {
				return withCode(ExitFailed, fmt.Errorf("call not approved: %s", v.Reason))
			}
			res, err := b.Call(ctx, args[0], args[1], raw)
			var unavailable *bridge.UnavailableError
			switch {
			case errors.As(err, &unavailable):
				return withCode(ExitUsage, err)
			case err != nil:
				return withCode(ExitUsage, err)
			}
			if *a.mcpJSON {
				if err := printJSON(a.Stdout, map[string]any{"isError": res.IsError, "text": res.Text}); err != nil {
					return err
				}
			} else {
				text := res.Text
				if a.IsTerminal(a.Stdout) {
					text = textsafe.Clean(text)
				}
				fmt.Fprint(a.Stdout, text)
				if !strings.HasSuffix(text, "\n") {
					fmt.Fprintln(a.Stdout)
				}
			}
			if res.IsError {
				return silentExit(ExitFailed)
			}
			return nil
		},
	}
}
