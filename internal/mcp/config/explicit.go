package config

import (
	"errors"
	"strings"
)

// Explicit builds the entry of tai mcp add NAME -- CMD ARGS…: argv is the
// command and its arguments exactly as given after "--".
func Explicit(name string, argv []string) (Entry, error) {
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		return Entry{}, errors.New("no command after --: use tai mcp add NAME -- CMD [ARGS…]")
	}
	e := Entry{Transport: Stdio, Command: argv[0], Source: SourceExplicit}
	if len(argv) > 1 {
		e.Args = append([]string(nil), argv[1:]...)
	}
	walk(&e, func(_, s string) string {
		out, _ := canonicalRefs(s)
		return out
	})
	if err := setName(&e, name); err != nil {
		return Entry{}, err
	}
	if err := checkStrings(e); err != nil {
		return Entry{}, err
	}
	noteInputs(&e, nil)
	return e, nil
}
