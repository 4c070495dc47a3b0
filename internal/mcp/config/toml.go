package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// fromTOML reads a Codex config.toml, or any part of one, taking its
// [mcp_servers.NAME] tables and ignoring every other setting.
func fromTOML(text string) ([]Entry, error) {
	if err := checkTOMLShape(text); err != nil {
		return nil, err
	}
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg, _, _ := strings.Cut(pe.Message, "\n")
			return nil, fmt.Errorf("invalid TOML at line %d: %s", pe.Position.Line, printable(cut(msg, 160)))
		}
		return nil, fmt.Errorf("invalid TOML: %w", err)
	}
	raw, ok := doc["mcp_servers"]
	if !ok {
		return nil, noServersTable(doc)
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("mcp_servers: want a table of servers ([mcp_servers.NAME]), got %s", typeName(raw))
	}
	if len(servers) == 0 {
		return nil, errors.New("mcp_servers holds no servers: add a [mcp_servers.NAME] table")
	}
	var entries []Entry
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		where := at("mcp_servers", name)
		m, ok := servers[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: want a table, got %s", where, typeName(servers[name]))
		}
		e, err := decodeEntry(name, where, m, SourceTOML)
		if err != nil {
			return nil, err
		}
		noteInputs(&e, nil)
		entries = append(entries, e)
	}
	return entries, nil
}

func noServersTable(doc map[string]any) error {
	if len(doc) == 0 {
		return errors.New("no [mcp_servers.NAME] table in the TOML: paste a config that defines one")
	}
	return fmt.Errorf("no [mcp_servers.NAME] table in the TOML (found %s): paste the [mcp_servers.…] part of the config", listKeys(doc))
}
