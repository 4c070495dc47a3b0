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
	"tai/internal/mcp/oauth"
	"tai/internal/textsafe"
)

func newMCPLoginCmd(a *App) *cobra.Command {
	var oc clientFlags
	var noBrowser bool
	cmd := a.bridgeCommand("login SERVER", "Log in to an HTTP server that needs OAuth (opens the browser; asks first)", exactArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
		in := bufio.NewReader(a.Stdin)
		client, err := oc.read(in)
		if err != nil {
			return err
		}
		if client != nil {
			if err := b.SaveClient(ctx, args[0], *client); err != nil {
				return withCode(ExitUsage, err)
			}
		}
		if noBrowser {
			b.Browser = a.printLoginURL
			b.Paste = func(ctx context.Context) (string, error) { return a.readPasted(ctx, in) }
		}
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
server URL, authorization server, scopes and client and asks, opens your
browser ($BROWSER when set; the URL is printed too) and waits up to
MCP_OAUTH_TIMEOUT for the redirect on 127.0.0.1. The redirect's state and
issuer (RFC 9207) are checked before the code is exchanged. The tokens are
kept sealed in the vault for the profile and refreshed when they expire; the
tools are listed with them, cached and pinned, and the server is enabled for
the profile.

tai is known to the authorization server, in this order, as: the client
registered beforehand (--client-id, or a pasted entry's "oauth"), its client
ID metadata document (where the server takes one and the setting
oauth_client_metadata_url names where docs/oauth-client.json is served), or
a dynamic registration. With none possible, it says so and asks for
--client-id.

With --no-browser tai only prints the URL: open it in a browser anywhere
(another machine, outside a container); after you log in the browser lands on
http://127.0.0.1:…/callback?…, which may fail to load there: copy that whole
address and paste it here. It is checked as the loopback redirect is.`
	cmd.Example = `  tai mcp add --name docs https://example.com/mcp
  tai mcp login docs
  tai mcp login docs --client-id my-app --client-secret-stdin < secret.txt
  tai mcp login docs --no-browser`
	oc.register(cmd)
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "print the authorization URL and take the redirect URL pasted back (SSH sessions, containers)")
	return cmd
}

// clientFlags are the flags that give a client registered beforehand.
type clientFlags struct {
	id          string
	secretStdin bool
	port        int
	scopes      []string
}

func (f *clientFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.id, "client-id", "", "OAuth client registered beforehand in the service's developer console")
	cmd.Flags().BoolVar(&f.secretStdin, "client-secret-stdin", false, "read that client's secret from the first line of stdin (kept sealed in the vault)")
	cmd.Flags().IntVar(&f.port, "callback-port", 0, "loopback port the client's redirect URI names (default: any free port)")
	cmd.Flags().StringSliceVar(&f.scopes, "scope", nil, "scopes to ask for with that client (default: what the server names)")
}

// read is the client the flags give, nil when --client-id is not set; the
// secret is the first line of in.
func (f *clientFlags) read(in *bufio.Reader) (*config.OAuthClient, error) {
	if f.id == "" {
		if f.secretStdin || f.port != 0 || f.scopes != nil {
			return nil, usageError("--client-secret-stdin, --callback-port and --scope belong to a client: give --client-id too")
		}
		return nil, nil
	}
	o := &config.OAuthClient{ClientID: f.id, CallbackPort: f.port, Scopes: f.scopes}
	if f.secretStdin {
		line, err := in.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			return nil, usageError("--client-secret-stdin: no secret on stdin: pipe it in, one line")
		}
		o.ClientSecret = strings.TrimRight(line, "\r\n")
		if o.ClientSecret == "" {
			return nil, usageError("--client-secret-stdin: the secret on stdin is empty")
		}
	}
	if err := o.Check(); err != nil {
		return nil, withCode(ExitUsage, err)
	}
	return o, nil
}

// printLoginURL shows a headless login's authorization URL, and how to
// bring the redirect back.
func (a *App) printLoginURL(ctx context.Context, authURL string) error {
	fmt.Fprintf(a.Stderr, "tai: open this URL in a browser (on any machine) and log in:\n  %s\n"+
		"tai: the browser then lands on http://127.0.0.1:…/callback?… (the page may not load there): paste that whole address here and press Enter:\n",
		textsafe.VisibleLine(authURL))
	return nil
}

// readPasted reads the redirect URL pasted after a headless login.
func (a *App) readPasted(ctx context.Context, in *bufio.Reader) (string, error) {
	line, err := in.ReadString('\n')
	if err != nil && (err != io.EOF || strings.TrimSpace(line) == "") {
		return "", errors.New("nothing was pasted (stdin ended): paste the address the browser landed on")
	}
	return line, nil
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
