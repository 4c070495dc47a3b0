package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/mcp/bridge"
	"tai/internal/tools"
	"tai/internal/vault"
)

func newMCPCallCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "call SERVER TOOL [JSON]",
		Short: "Call one tool of a server (exit 1 when the tool reports an error, 2 on a protocol failure)",
		Long: `Call one tool of a registered, enabled server, with its arguments as a JSON
object. The call asks approval like any tool that changes things (--yes,
--auto or --yolo approve it). Exit status: 0 success, 1 the tool ran and
reported an error (isError) or is disabled for the profile (tai mcp tools
SERVER --enable TOOL offers it), 2 a usage, protocol or transport failure.`,
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
			ctx, done := a.callProgress(ctx)
			env := &tools.Env{Store: a.store, Profile: b.Profile, Dir: b.Dir, Approval: ap.Mode}
			res, err := tools.Invoke(ctx, t, tools.Call{Args: raw, Env: env},
				tools.Via{Origin: vault.OriginCLI, Approver: ap})
			done()
			switch {
			case errors.Is(err, tools.ErrApproval):
				return err
			case errors.Is(err, bridge.ErrFiltered):
				return withCode(ExitFailed, err)
			case err != nil:
				return withCode(ExitUsage, err)
			case res.Denied():
				return withCode(ExitFailed, fmt.Errorf("call not approved: %s", res.Reason))
			case res.Invalid():
				return withCode(ExitUsage, errors.New(res.Text))
			}
			if *a.mcpJSON {
				if err := printJSON(a.Stdout, map[string]any{"type": "result", "isError": res.IsError, "text": res.Text}); err != nil {
					return err
				}
			} else {
				a.printText(res.Text)
			}
			if res.IsError {
				return silentExit(ExitFailed)
			}
			return nil
		},
	}
}

// callProgress shows a call's progress: with --json a {"type":"progress"}
// line on stdout each, at a terminal a live line on stderr. done clears
// the line once the call ended.
func (a *App) callProgress(ctx context.Context) (context.Context, func()) {
	if *a.mcpJSON {
		out := &jsonLines{enc: json.NewEncoder(a.Stdout)}
		return tools.WithProgress(ctx, func(p tools.Progress) { out.write(progressEvent(p)) }), func() {}
	}
	live := a.progressLine()
	if live == nil {
		return ctx, func() {}
	}
	return tools.WithProgress(ctx, live.show), live.clear
}
