package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/oauth"
	"tai/internal/textsafe"
)

func newMCPLoginCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("login SERVER", "Log in to an HTTP server that needs OAuth (opens the browser; asks first)", exactArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
		added, err := b.Login(ctx, args[0])
		if errors.Is(err, bridge.ErrNotConsented) {
			return withCode(ExitFailed, err)
		}
		if err != nil {
			return withCode(ExitUsage, err)
		}
		fmt.Fprintln(a.Stdout, textsafe.Visible(bridge.FormatAdded([]bridge.Added{added}, b.Profile)))
		return nil
	})
	cmd.Long = `Log in to a registered HTTP MCP server that answered 401. tai checks that
the server really needs a login, finds its authorization server, shows the
server URL, authorization server and scopes and asks, registers itself as
the public client tai-mcp, opens your browser ($BROWSER when set; the URL is
printed too) and waits up to MCP_OAUTH_TIMEOUT for the redirect on
127.0.0.1. The tokens are kept sealed in the vault for the profile and
refreshed when they expire; the tools are listed with them, cached and
pinned, and the server is enabled for the profile.`
	cmd.Example = `  tai mcp add --name docs https://example.com/mcp
  tai mcp login docs`
	return cmd
}

// openBrowser shows a login's authorization URL: printed on stderr (for
// terminals without a browser) and opened in the browser.
func (a *App) openBrowser(ctx context.Context, authURL string) error {
	fmt.Fprintf(a.Stderr, "tai: log in in your browser; if it does not open, open this URL:\n  %s\n", textsafe.VisibleLine(authURL))
	if err := oauth.OpenBrowser(authURL, a.Getenv); err != nil {
		fmt.Fprintf(a.Stderr, "tai: %v\n", err)
	}
	return nil
}
