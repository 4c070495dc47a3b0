package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/config"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

// hostFile is one place an MCP host keeps its servers.
type hostFile struct {
	host string // who keeps it, for the listing: "Claude Code (project)"
	path string
	opts config.Options
}

// importLocations are the configs other MCP hosts keep on disk, project
// files first, for every host tai reads.
func importLocations(dir, home, goos string, getenv func(string) string) []hostFile {
	appSupport := filepath.Join(home, ".config")
	if goos == "darwin" {
		appSupport = filepath.Join(home, "Library", "Application Support")
	}
	codex := filepath.Join(home, ".codex")
	if c := getenv("CODEX_HOME"); c != "" {
		codex = c
	}
	gemini := config.Options{Host: config.HostGemini}
	all := []hostFile{
		{"Claude Code (project scope)", filepath.Join(dir, ".mcp.json"), config.Options{}},
		{"Cursor (project)", filepath.Join(dir, ".cursor", "mcp.json"), config.Options{}},
		{"VS Code (workspace)", filepath.Join(dir, ".vscode", "mcp.json"), config.Options{}},
		{"VS Code (workspace settings)", filepath.Join(dir, ".vscode", "settings.json"), config.Options{}},
		{"Gemini CLI (project)", filepath.Join(dir, ".gemini", "settings.json"), gemini},
		{"Crush (project)", filepath.Join(dir, ".crush.json"), config.Options{}},
		{"Crush (project)", filepath.Join(dir, "crush.json"), config.Options{}},
		{"Claude Code (user and local scope)", filepath.Join(home, ".claude.json"), config.Options{Project: dir}},
		{"Claude Desktop", filepath.Join(appSupport, "Claude", "claude_desktop_config.json"), config.Options{}},
		{"Cursor (user)", filepath.Join(home, ".cursor", "mcp.json"), config.Options{}},
		{"VS Code (user)", filepath.Join(appSupport, "Code", "User", "mcp.json"), config.Options{}},
		{"VS Code (user settings)", filepath.Join(appSupport, "Code", "User", "settings.json"), config.Options{}},
		{"Windsurf", filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), config.Options{}},
		{"Gemini CLI (user)", filepath.Join(home, ".gemini", "settings.json"), gemini},
		{"Codex", filepath.Join(codex, "config.toml"), config.Options{}},
		{"Crush (user)", filepath.Join(home, ".config", "crush", "crush.json"), config.Options{}},
	}
	// In the home directory the project files are the user's: read once.
	var out []hostFile
	for _, f := range all {
		if !slices.ContainsFunc(out, func(o hostFile) bool { return o.path == f.path }) {
			out = append(out, f)
		}
	}
	return out
}

// namedFile is PATH given to tai mcp import: its host is told from its
// name where that matters (Gemini's $VAR, Claude Code's projects).
func namedFile(path, dir string) hostFile {
	opts := config.Options{Project: dir}
	if filepath.Base(filepath.Dir(path)) == ".gemini" {
		opts.Host = config.HostGemini
	}
	return hostFile{host: "named", path: path, opts: opts}
}

func newMCPImportCmd(a *App) *cobra.Command {
	var enable bool
	var names string
	cmd := &cobra.Command{
		Use:   "import [PATH]",
		Short: "Offer the servers other MCP hosts have configured, each through the normal consent",
		Long: `Read the MCP configs other hosts keep on disk, or just PATH, list what
each holds, and offer the servers you pick for registration with the usual
consent. Read here: Claude Code (.mcp.json, and ~/.claude.json's user scope
and this directory's local scope), Cursor (.cursor/mcp.json and
~/.cursor/mcp.json), VS Code (.vscode/mcp.json, .vscode/settings.json, and
the user mcp.json and settings.json), Gemini CLI (.gemini/settings.json and
~/.gemini/settings.json), Claude Desktop, Windsurf
(~/.codeium/windsurf/mcp_config.json), Codex (~/.codex/config.toml) and
Crush (.crush.json, crush.json and ~/.config/crush/crush.json).
At a terminal tai asks which servers to offer; --name picks them instead.
Servers already registered under the same name are skipped.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			b, ap, err := a.mcpSetup(ctx)
			if err != nil {
				return err
			}
			defer b.Close()
			dir, _ := os.Getwd()
			files := importLocations(dir, homeDir(), runtime.GOOS, a.Getenv)
			if len(args) > 0 {
				files = []hostFile{namedFile(args[0], dir)}
			}
			found, failed := a.importFound(ctx, files, len(args) > 0)
			if len(found) == 0 && len(args) == 0 {
				fmt.Fprintln(a.Stdout, "no MCP servers of other hosts were found here")
			}
			ask, _ := ap.Person.(tools.Prompter)
			picked, err := a.importPick(ctx, found, names, ask)
			if err != nil {
				return err
			}
			registered := 0
			for _, e := range picked {
				added, err := b.Add(ctx, bridge.AddRequest{Entries: []config.Entry{e}, Enable: enable}, a.registerConsent(ap, enable), nil)
				if err != nil {
					fmt.Fprintf(a.Stderr, "tai: %s\n", textsafe.Line(err.Error()))
					failed++
					continue
				}
				registered += len(added)
				fmt.Fprintln(a.Stdout, textsafe.Visible(bridge.FormatAdded(added, b.Profile)))
			}
			fmt.Fprintf(a.Stdout, "import: %d server(s) found, %d offered, %d registered\n", len(found), len(picked), registered)
			if failed > 0 && registered == 0 {
				return silentExit(ExitFailed)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&enable, "enable", false, "enable the imported servers for the profile without asking")
	cmd.Flags().StringVar(&names, "name", "", "offer only these servers (comma-separated names)")
	return cmd
}

func homeDir() string {
	home, _ := os.UserHomeDir()
	return home
}

// importFound reads every file, lists on stdout what each holds, and
// returns the servers not registered yet, the first of each name. A
// missing file, or a settings file with no MCP servers, is skipped unless
// it was named.
func (a *App) importFound(ctx context.Context, files []hostFile, named bool) (found []config.Entry, failed int) {
	stored, _ := a.store.MCPServerNames(ctx)
	seen := map[string]string{}
	for _, f := range files {
		entries, err := readHostFile(f)
		switch {
		case !named && (errors.Is(err, os.ErrNotExist) || errors.Is(err, config.ErrUnknownShape)):
			continue
		case err != nil:
			fmt.Fprintf(a.Stderr, "tai: %s: %s\n", f.path, textsafe.Line(err.Error()))
			failed++
			continue
		}
		var offer, skipped []string
		for _, e := range entries {
			switch where, dup := seen[e.Name]; {
			case slices.Contains(stored, e.Name):
				skipped = append(skipped, e.Name+" (already registered; tai mcp add "+e.Name+" verifies it)")
			case dup:
				skipped = append(skipped, e.Name+" (also in "+where+")")
			default:
				seen[e.Name] = f.path
				offer = append(offer, e.Name)
				found = append(found, e)
			}
		}
		label := f.path
		if f.host != "named" {
			label += " (" + f.host + ")"
		}
		fmt.Fprintf(a.Stdout, "%s: %d server(s) to offer%s\n", textsafe.Line(label), len(offer), listed(offer))
		for _, s := range skipped {
			fmt.Fprintf(a.Stdout, "  skipped %s\n", textsafe.Line(s))
		}
	}
	return found, failed
}

func listed(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}

// readHostFile normalizes one host's file.
func readHostFile(f hostFile) ([]config.Entry, error) {
	data, err := os.ReadFile(f.path)
	if err != nil {
		return nil, err
	}
	return config.Normalize(string(data), f.opts)
}

// importPick is what the person chose to offer: --name's servers, else at
// a terminal the answer to one question, else every server found (each
// still gets its own consent).
func (a *App) importPick(ctx context.Context, found []config.Entry, names string, ask tools.Prompter) ([]config.Entry, error) {
	if len(found) == 0 {
		return nil, nil
	}
	if names == "" && (ask == nil || a.flags.yes || !a.interactive()) {
		return found, nil
	}
	if names == "" {
		ans, err := ask.Ask(ctx, "Which servers should tai offer? Names separated by spaces or commas; Enter offers all, none offers none.", nil)
		if err != nil {
			return nil, err
		}
		switch names = strings.TrimSpace(ans); names {
		case "":
			return found, nil
		case "none":
			return nil, nil
		}
	}
	var picked []config.Entry
	for _, n := range strings.FieldsFunc(names, func(r rune) bool { return r == ',' || r == ' ' }) {
		i := slices.IndexFunc(found, func(e config.Entry) bool { return e.Name == n })
		if i < 0 {
			return nil, usageError("no server named %s was found to import; the ones found are listed above", textsafe.Line(n))
		}
		picked = append(picked, found[i])
	}
	return picked, nil
}
