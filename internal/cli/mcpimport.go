package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/config"
	"tai/internal/textsafe"
)

// importLocations are the configs other MCP clients keep on disk, project
// files first.
func importLocations(dir, home, goos string, getenv func(string) string) []string {
	appSupport := filepath.Join(home, ".config")
	if goos == "darwin" {
		appSupport = filepath.Join(home, "Library", "Application Support")
	}
	codex := filepath.Join(home, ".codex")
	if c := getenv("CODEX_HOME"); c != "" {
		codex = c
	}
	return []string{
		filepath.Join(dir, ".mcp.json"),
		filepath.Join(dir, ".cursor", "mcp.json"),
		filepath.Join(dir, ".vscode", "mcp.json"),
		filepath.Join(appSupport, "Claude", "claude_desktop_config.json"),
		filepath.Join(home, ".cursor", "mcp.json"),
		filepath.Join(appSupport, "Code", "User", "mcp.json"),
		filepath.Join(codex, "config.toml"),
		filepath.Join(home, ".gemini", "settings.json"),
	}
}

func newMCPImportCmd(a *App) *cobra.Command {
	var enable bool
	cmd := &cobra.Command{
		Use:   "import [PATH]",
		Short: "Offer the servers other MCP clients have configured, each through the normal consent",
		Long: `Read the MCP configs other clients keep on disk — .mcp.json, .cursor/mcp.json
and .vscode/mcp.json in this directory; Claude Desktop's, Cursor's and VS
Code's user configs; ~/.codex/config.toml; ~/.gemini/settings.json — or just
PATH, and offer each server for registration with the usual consent.
Servers already registered under the same name are skipped.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			b, ap, err := a.mcpSetup(ctx)
			if err != nil {
				return err
			}
			defer b.Close()
			paths := args
			if len(paths) == 0 {
				dir, _ := os.Getwd()
				home, _ := os.UserHomeDir()
				paths = importLocations(dir, home, runtime.GOOS, a.Getenv)
			}
			files, found, registered, failed := 0, 0, 0, 0
			for _, p := range paths {
				entries, seen, err := a.importFile(ctx, p, len(args) > 0)
				if err != nil {
					fmt.Fprintf(a.Stderr, "tai: %s: %s\n", p, textsafe.Line(err.Error()))
					failed++
					continue
				}
				if seen {
					files++
				}
				found += len(entries)
				for _, e := range entries {
					added, err := b.Add(ctx, bridge.AddRequest{Entries: []config.Entry{e}, Enable: enable}, a.registerConsent(ap, enable), nil)
					if err != nil {
						fmt.Fprintf(a.Stderr, "tai: %s\n", textsafe.Line(err.Error()))
						failed++
						continue
					}
					registered += len(added)
					fmt.Fprintln(a.Stdout, textsafe.Visible(bridge.FormatAdded(added, b.Profile)))
				}
			}
			fmt.Fprintf(a.Stdout, "import: %d server(s) found, %d registered\n", found, registered)
			if files == 0 && len(args) == 0 {
				fmt.Fprintln(a.Stdout, "no MCP configs of other clients were found here")
			}
			if failed > 0 && registered == 0 {
				return silentExit(ExitFailed)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&enable, "enable", false, "enable the imported servers for the profile without asking")
	return cmd
}

// importFile normalizes one config file, leaving out servers already
// registered. A missing file is no error unless it was named.
func (a *App) importFile(ctx context.Context, path string, named bool) (entries []config.Entry, seen bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !named {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	all, err := config.Normalize(string(data), config.Options{})
	if err != nil {
		return nil, true, err
	}
	stored, err := a.store.MCPServerNames(ctx)
	if err != nil {
		return nil, true, err
	}
	have := map[string]bool{}
	for _, n := range stored {
		have[n] = true
	}
	for _, e := range all {
		if have[e.Name] {
			fmt.Fprintf(a.Stderr, "tai: %s: server %s is already registered; skipped (tai mcp add %s verifies it)\n", path, e.Name, e.Name)
			continue
		}
		entries = append(entries, e)
	}
	fmt.Fprintf(a.Stderr, "tai: %s: %d server(s) to offer\n", path, len(entries))
	return entries, true, nil
}
