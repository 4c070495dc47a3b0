package cli

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
)

// doctorMCP checks every registered server: its launch resolves (command
// on PATH, ${VAR} references), its tools are not withheld, its OAuth
// login has not expired for good; with --connect, its handshake.
func (a *App) doctorMCP(ctx context.Context, o doctorOptions) []finding {
	b, _, err := a.mcpSetup(ctx)
	if err != nil {
		return []finding{findFail("mcp", "servers", err.Error(), "")}
	}
	defer b.Close()
	list, err := b.Servers(ctx)
	if err != nil {
		return []finding{findFail("mcp", "servers", err.Error(), "")}
	}
	fs := []finding{clientDocumentFinding(b.ClientMetadataURL)}
	if len(list) == 0 {
		return append(fs, findOK("mcp", "servers", "none registered (tai mcp add)"))
	}
	for _, s := range list {
		fs = append(fs, a.doctorServer(ctx, b, s, o)...)
	}
	return fs
}

func (a *App) doctorServer(ctx context.Context, b *bridge.Bridge, s bridge.ServerInfo, o doctorOptions) []finding {
	name := s.Name
	var fs []finding
	x, approved, err := b.Launch(ctx, name)
	switch {
	case err != nil:
		return append(fs, findFail("mcp", name, err.Error(), ""))
	case x.Err() != nil:
		fs = append(fs, findFail("mcp", name, x.Err().Error(), unresolvedFix(x)))
	case x.Entry.Transport == config.Stdio:
		fs = append(fs, commandFinding(name, x.Entry))
	default:
		fs = append(fs, findOK("mcp", name, "url "+x.Entry.URL))
	}
	if x.Err() == nil && !approved {
		fs = append(fs, findWarn("mcp", name, "what it runs changed since you approved it", "its next use shows the change and asks again"))
	}
	if s.Pending > 0 {
		fs = append(fs, findFail("mcp", name, fmt.Sprintf("%d tool(s) withheld: new or changed since approved", s.Pending),
			"review them: tai mcp tools "+name+" --approve"))
	} else {
		fs = append(fs, findOK("mcp", name, s.PinState()))
	}
	if x.Entry.Transport == config.HTTP {
		if f, has := a.loginFinding(ctx, b, name); has {
			fs = append(fs, f)
		}
	}
	if o.connect {
		fs = append(fs, handshakeFinding(ctx, b, name, o.timeout))
	}
	return fs
}

// clientDocumentFinding reports tai's OAuth client metadata document: the
// URL logins give as tai's client_id where an authorization server takes
// one, or how to set it while it is unset.
func clientDocumentFinding(u string) finding {
	const check = "oauth client document"
	switch {
	case u == "":
		f := findOK("mcp", check, "not set: logins register dynamically, or use a client you give (--client-id), where a server takes client ID metadata documents too")
		f.Fix = "to be known by a document instead: serve docs/oauth-client.json at an https URL, then tai config set oauth_client_metadata_url URL (or TAI_OAUTH_CLIENT_METADATA_URL)"
		return f
	case oauth.CheckClientMetadataURL(u) != nil:
		return findFail("mcp", check, oauth.CheckClientMetadataURL(u).Error(), "tai config set oauth_client_metadata_url https://HOST/PATH/oauth-client.json")
	}
	return findOK("mcp", check, "logins give "+u+" as tai's client_id where the authorization server takes client ID metadata documents")
}

// unresolvedFix says how to give each missing variable a value.
func unresolvedFix(x config.Expanded) string {
	var names []string
	for _, r := range x.Refs {
		if r.Origin == config.Unresolved {
			names = append(names, r.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "export " + strings.Join(names, ", ") + " or store each: tai secret set NAME"
}

// commandFinding checks that a stdio server's command can be found.
func commandFinding(name string, e config.Entry) finding {
	cmd := e.Command
	if !filepath.IsAbs(cmd) && strings.ContainsAny(cmd, `/\`) && e.Cwd != "" {
		cmd = filepath.Join(e.Cwd, cmd)
	}
	path, err := exec.LookPath(cmd)
	if err != nil {
		return findFail("mcp", name, "command "+e.Command+" is not on PATH", "install it (see its README), or fix the entry: tai mcp remove "+name+", then add it again")
	}
	return findOK("mcp", name, "command "+e.Command+" found at "+path)
}

// loginFinding reports an OAuth login: fine, refreshable, or expired.
func (a *App) loginFinding(ctx context.Context, b *bridge.Bridge, name string) (finding, bool) {
	s, refreshable, has, err := b.StoredLogin(ctx, name)
	switch {
	case err != nil:
		return findFail("mcp", name, "cannot read its login: "+err.Error(), ""), true
	case !has:
		return finding{}, false
	case s.Expiry.IsZero():
		return findOK("mcp", name, "logged in (no expiry given)"), true
	case time.Now().Before(s.Expiry):
		return findOK("mcp", name, "logged in until "+s.Expiry.Format(time.RFC3339)), true
	case refreshable:
		return findOK("mcp", name, "login expired "+s.Expiry.Format(time.RFC3339)+"; it refreshes on next use"), true
	}
	return findFail("mcp", name, "login expired "+s.Expiry.Format(time.RFC3339)+" and cannot be refreshed", "tai mcp login "+name), true
}

func handshakeFinding(ctx context.Context, b *bridge.Bridge, name string, timeout time.Duration) finding {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	took, err := b.Handshake(ctx, name)
	if err != nil {
		return findFail("mcp", name+" handshake", err.Error(), "tai mcp call "+name+" TOOL shows the server's own error")
	}
	return findOK("mcp", name+" handshake", "answered in "+took.Round(time.Millisecond).String())
}
