package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// MaxInput is the largest paste [Normalize] reads: 1 MiB.
const MaxInput = 1 << 20

// ErrTooLarge is wrapped by the error for a paste over [MaxInput].
var ErrTooLarge = errors.New("paste too large")

// Options tune [Normalize].
type Options struct {
	// Name names the server when the input holds exactly one (a --name
	// flag). It replaces a name from the config or a derived one.
	Name string
	// Stored reports whether a server of this name is registered, so that
	// a bare name can be recognised. Nil means none is.
	Stored func(name string) bool
	// Host names the client whose file the input is, when the caller knows
	// (tai mcp import): HostGemini expands $NAME inside strings as Gemini
	// CLI does. Empty means tell from the keys: a JSON paste with one of
	// Gemini CLI's own keys (httpUrl, includeTools, excludeTools, trust)
	// is Gemini's.
	Host string
	// Project is the directory whose Claude Code local scope to read from
	// Claude Code's ~/.claude.json (projects.<path>.mcpServers), beside its
	// user scope (the top-level mcpServers). Empty reads every project's.
	Project string
}

// HostGemini is Options.Host for Gemini CLI's settings.json.
const HostGemini = "gemini"

// StoredRef is the error Normalize returns for the bare name of a
// registered server: the caller resolves it from the vault.
type StoredRef struct{ Name string }

func (r *StoredRef) Error() string {
	return fmt.Sprintf("server %s is already stored: tai mcp list shows it", r.Name)
}

// Normalize turns a pasted config into the entries it describes, in name
// order: several servers in one paste give several entries. On any problem
// it returns no entries and one line saying what is wrong and what to do.
//
// Two inputs are recognised but not normalizable, and come back as typed
// errors for the caller to resolve: a GitHub repository link
// ([*GitHubRef], for the resolver) and the bare name of a stored server
// ([*StoredRef]). Check for them with errors.As.
func Normalize(input string, opts Options) ([]Entry, error) {
	if len(input) > MaxInput {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d (1 MiB); paste one config, not a whole file of other settings", ErrTooLarge, len(input), MaxInput)
	}
	text := strings.TrimSpace(strings.TrimPrefix(input, "\ufeff"))
	if text == "" {
		return nil, errors.New("empty input: paste a JSON or TOML config, a URL, or a stored server name")
	}
	entries, err := parse(text, opts)
	if err != nil {
		return nil, err
	}
	if entries, err = rename(entries, opts.Name); err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	for i := 1; i < len(entries); i++ {
		if entries[i].Name == entries[i-1].Name {
			return nil, fmt.Errorf("two servers are both named %s: rename one", entries[i].Name)
		}
	}
	return entries, nil
}

// parse picks the reader for the shape of text.
func parse(text string, opts Options) ([]Entry, error) {
	switch {
	case text[0] == '{' || strings.HasPrefix(text, "//") || strings.HasPrefix(text, "/*"):
		return fromJSON(text, 0, opts) // VS Code's and Cursor's examples open with a comment
	case text[0] == '"':
		// A fragment copied out of a larger file: "name": {...}
		return fromJSON("{"+text+"}", 1, opts)
	case text[0] == '[' && looksLikeJSONArray(text):
		return nil, errors.New("a JSON list is not a config: paste an object with mcpServers or servers")
	}
	if !strings.ContainsAny(text, " \t\r\n") {
		return fromWord(text, opts)
	}
	if strings.Contains(text, "mcp_servers") || text[0] == '[' || strings.Contains(text, "=") {
		return fromTOML(text)
	}
	if first, _, _ := strings.Cut(text, " "); isLauncher(first) {
		return nil, fmt.Errorf("this looks like a command line: register it with tai mcp add NAME -- %s", first)
	}
	return nil, errUnrecognised
}

var errUnrecognised = errors.New("unrecognised input: paste a JSON or TOML config, an https URL, a GitHub link or a stored server name; for a command use tai mcp add NAME -- CMD ARGS")

// fromWord reads a single token: a URL, a GitHub link or a stored name.
func fromWord(text string, opts Options) ([]Entry, error) {
	if ref, err := gitHubRef(text); ref != nil || err != nil {
		if err != nil {
			return nil, err
		}
		return nil, ref
	}
	if strings.Contains(text, "://") {
		e, err := fromURL(text)
		if err != nil {
			return nil, err
		}
		return []Entry{e}, nil
	}
	if isName(text) {
		if opts.Stored != nil && opts.Stored(text) {
			return nil, &StoredRef{Name: text}
		}
		return nil, fmt.Errorf("no stored server is named %s: paste a config, a URL or a GitHub link (tai mcp list shows the stored ones)", text)
	}
	if isLauncher(text) {
		return nil, fmt.Errorf("this looks like a command: register it with tai mcp add NAME -- %s", text)
	}
	if strings.Contains(text, "=") || text[0] == '[' {
		return fromTOML(text) // mcp_servers.x.command="srv" is TOML too
	}
	return nil, errUnrecognised
}

// Rename applies a name a person chose to entries, as [Options.Name] does
// for a paste: the one entry is renamed (notes about a derived name are
// dropped); among several, the name selects, and may list several names
// separated by commas.
func Rename(entries []Entry, name string) ([]Entry, error) { return rename(entries, name) }

// rename applies Options.Name: it renames a single server, and selects
// among several, returning the entries kept.
func rename(entries []Entry, name string) ([]Entry, error) {
	if name == "" {
		return entries, nil
	}
	if len(entries) != 1 {
		return selectNamed(entries, name)
	}
	e := &entries[0]
	var notes []string
	for _, n := range e.Notes {
		if !strings.HasPrefix(n, nameNote) {
			notes = append(notes, n)
		}
	}
	e.Notes = notes
	return entries, setName(e, name)
}

// selectNamed keeps the entries named in list (comma-separated), in the
// order of entries; a name that matches none is an error listing them.
func selectNamed(entries []Entry, list string) ([]Entry, error) {
	var kept []Entry
	for _, want := range strings.Split(list, ",") {
		want = strings.TrimSpace(want)
		found := false
		for _, e := range entries {
			if e.Name == want {
				kept, found = append(kept, e), true
			}
		}
		if !found {
			names := make([]string, len(entries))
			for i, e := range entries {
				names[i] = e.Name
			}
			return nil, fmt.Errorf("the config holds %d servers (%s) and none is named %s: give one of those names, several separated by commas, or none for all",
				len(entries), strings.Join(names, ", "), printable(want))
		}
	}
	return kept, nil
}

func looksLikeJSONArray(text string) bool {
	rest := strings.TrimSpace(text[1:])
	return rest == "" || strings.IndexByte("{\"]", rest[0]) >= 0
}

// isLauncher reports whether word is a program people start MCP servers
// with, to point them at tai mcp add.
func isLauncher(word string) bool {
	switch word {
	case "npx", "uvx", "uv", "docker", "podman", "node", "python", "python3", "deno", "bun", "bunx", "pnpm", "pipx":
		return true
	}
	return false
}
