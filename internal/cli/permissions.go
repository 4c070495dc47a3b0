package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/vault"
)

func newPermissionsCmd(a *App) *cobra.Command {
	list := a.profileCommand("list", "List the profile's standing grants", 0, func(ctx context.Context, s *vault.Store, p string, _ []string) error {
		grants, err := s.Grants(ctx, p)
		if err != nil {
			return err
		}
		return printTable(a.Stdout, "no standing permissions on profile "+p, "KIND\tSUBJECT\tGRANTED", grants, func(g vault.Grant) string {
			return g.Kind + "\t" + textsafe.VisibleLine(g.Subject) + "\t" + minute(g.Created)
		})
	})
	cmd := &cobra.Command{
		Use:   "permissions",
		Short: "List, grant and revoke standing \"always allow\" grants",
		Long: `Answering "always" on a consent screen stores narrow grants on the current
profile: a shell command prefix (command:go test), a host a sandboxed
command may reach through tai's proxy (network:registry.npmjs.org for npm
install), a web host
(host:example.com), a directory read outside the workspace (dir:/srv/data),
one MCP tool (tool:mcp_github_create_issue) or every tool of an MCP server
(server:github). A loopback or private address needs its own grant
(local-host:localhost:8080). Reads of sensitive places (tai's home, ~/.ssh,
cloud credentials, other processes' environment) ask every time, whatever
is granted.

A grant for a whole tool that changes things (tool:shell, tool:write_file)
is never stored by a key press: give it here, with tai permissions grant.`,
		Args: exactArgs(0),
		RunE: list.RunE,
	}
	grant := a.profileCommand("grant KIND SUBJECT", "Grant a standing permission: "+strings.Join(tools.GrantKinds, ", "), 2, a.grant)
	grant.Example = `  tai permissions grant command "npm test"
  tai permissions grant network "registry.npmjs.org for npm install"
  tai permissions grant host api.github.com
  tai permissions grant dir ~/src/shared
  tai permissions grant tool write_file      # every write_file call, anywhere`
	revoke := a.profileCommand("revoke [KIND:]SUBJECT", "Revoke a grant: KIND:SUBJECT as tai permissions lists it, or a bare subject of any kind", 1, a.revoke)
	revoke.Example = `  tai permissions revoke command:"go test"
  tai permissions revoke server:github`
	cmd.AddCommand(list, grant, revoke)
	return cmd
}

func (a *App) grant(ctx context.Context, s *vault.Store, p string, args []string) error {
	kind, subject, err := grantArgs(args[0], args[1])
	if err != nil {
		return err
	}
	if err := s.AddGrant(ctx, p, kind, subject); err != nil {
		return err
	}
	a.audit(ctx, "grant", kind+":"+subject, "ok")
	fmt.Fprintf(a.Stdout, "granted %s:%s on profile %s\n", kind, textsafe.Line(subject), p)
	return nil
}

func (a *App) revoke(ctx context.Context, s *vault.Store, p string, args []string) error {
	kind, subject := "", args[0]
	if k, rest, ok := strings.Cut(subject, ":"); ok && slices.Contains(tools.GrantKinds, k) {
		kind, subject = k, rest
	}
	if err := s.RevokeGrant(ctx, p, kind, subject); err != nil {
		return withCode(ExitFailed, err)
	}
	a.audit(ctx, "grant-revoke", strings.TrimPrefix(kind+":"+subject, ":"), "ok")
	fmt.Fprintf(a.Stdout, "revoked %s on profile %s\n", textsafe.VisibleLine(args[0]), p)
	return nil
}

// grantArgs checks an explicit grant and puts its subject in the form the
// approval policy compares: a host lower case, a directory absolute with
// its links resolved.
func grantArgs(kind, subject string) (string, string, error) {
	subject = strings.TrimSpace(subject)
	switch {
	case !slices.Contains(tools.GrantKinds, kind):
		return "", "", usageError("unknown kind %q: use one of %s", kind, strings.Join(tools.GrantKinds, ", "))
	case subject == "":
		return "", "", usageError("the subject is empty")
	case textsafe.Line(subject) != subject:
		return "", "", usageError("the subject %q holds control characters", subject)
	}
	switch kind {
	case tools.GrantHost:
		// Requests name hosts without the scheme's default port (HostOf).
		h := tools.HostOf("https://" + strings.TrimSuffix(strings.TrimSuffix(subject, ":80"), ":443"))
		if strings.ContainsAny(subject, "/?#@") || h == "" {
			return "", "", usageError("%q is not a host: give a name or address, with :PORT for a port other than 80 and 443", subject)
		}
		return kind, h, nil
	case tools.GrantLocalHost:
		h := tools.HostName("https://" + subject)
		if strings.ContainsAny(subject, "/?#@") || h == "" || strings.Contains(strings.Trim(subject, "[]"), "]") {
			return "", "", usageError("%q is not a host name or address (a local-host grant covers every port)", subject)
		}
		return kind, h, nil
	case tools.GrantDir:
		abs, err := absDir(subject)
		if err != nil {
			return "", "", err
		}
		return kind, abs, nil
	case tools.GrantCommand:
		return kind, strings.Join(strings.Fields(subject), " "), nil
	case tools.GrantNetwork:
		host, prefix, ok := strings.Cut(subject, tools.NetworkFor)
		prefix = strings.Join(strings.Fields(prefix), " ")
		h := tools.HostOf("https://" + strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(host), ":80"), ":443"))
		if !ok || prefix == "" || h == "" || strings.ContainsAny(host, "/?#@ ") {
			return "", "", usageError("%q is not HOST for COMMAND: give a host (with :PORT for a port other than 80 and 443), \" for \", and the command's program and subcommand, like \"registry.npmjs.org for npm install\"", subject)
		}
		return kind, h + tools.NetworkFor + prefix, nil
	}
	return kind, subject, nil
}

// absDir is an existing directory as an absolute path with its links
// resolved.
func absDir(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(home, p[1:])
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() {
		return "", usageError("%s is not a directory", p)
	}
	return tools.Resolve(abs), nil
}

// addedDirs are the --add-dir directories, checked.
func (a *App) addedDirs() ([]string, error) {
	var out []string
	for _, d := range a.flags.addDirs {
		abs, err := absDir(d)
		if err != nil {
			return nil, fmt.Errorf("--add-dir: %w", err)
		}
		out = append(out, abs)
	}
	return out, nil
}
