package bridge

import (
	"fmt"
	"sort"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// Describe is the consent screen for starting a server: the exact argv or
// URL that will run after expansion, env and headers with values masked,
// every ${VAR} the entry references with where it resolves from, and the
// normalizer's notes. why says what is being approved ("register", or
// "changed since you approved it").
func Describe(x config.Expanded, why string) tools.Consent {
	e := x.Entry
	hide := secretsHider(x.Secrets)
	var b strings.Builder
	var title string
	if e.Transport == config.Stdio {
		// The title alone is what an approval given in advance (--yes,
		// --auto) prints, so it names the whole command line too.
		title = fmt.Sprintf("MCP server %s (%s): run %s", e.Name, why, wire.Printable(hide(argv(e)), 160))
		fmt.Fprintf(&b, "will run: %s\n", hide(argv(e)))
		if e.Cwd != "" {
			fmt.Fprintf(&b, "in: %s\n", wire.Printable(e.Cwd, 200))
		}
		writeMasked(&b, "env", e.Env)
	} else {
		title = fmt.Sprintf("MCP server %s (%s): connect to %s", e.Name, why, hide(wire.Printable(e.URL, 120)))
		fmt.Fprintf(&b, "will connect to: %s\n", hide(wire.Printable(e.URL, 400)))
		writeMasked(&b, "headers", e.Headers)
	}
	if len(x.Refs) > 0 {
		b.WriteString("variables:\n")
		for _, r := range x.Refs {
			fmt.Fprintf(&b, "  %s from %s (in %s)\n", wire.Printable(r.Text, 80), r.Origin, strings.Join(r.Fields, ", "))
		}
	}
	for _, n := range e.Notes {
		fmt.Fprintf(&b, "note: %s\n", wire.Printable(n, 300))
	}
	for _, w := range x.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wire.Printable(w, 300))
	}
	if e.Source != "" {
		fmt.Fprintf(&b, "source: %s\n", wire.Printable(e.Source, 120))
	}
	return tools.Consent{Title: title, Detail: strings.TrimRight(b.String(), "\n")}
}

// secretsHider replaces substituted secret values with [secret:NAME], so
// the exact launch can be shown without showing what the vault holds.
func secretsHider(secrets map[string]string) func(string) string {
	var pairs []string
	for name, v := range secrets {
		if len(v) >= 4 {
			pairs = append(pairs, v, "[secret:"+name+"]")
		}
	}
	if len(pairs) == 0 {
		return func(s string) string { return s }
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}

// argv renders the command line with shell-style quoting where needed.
func argv(e config.Entry) string {
	parts := []string{quote(e.Command)}
	for _, a := range e.Args {
		parts = append(parts, quote(a))
	}
	return wire.Printable(strings.Join(parts, " "), 2000)
}

func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeMasked lists names with their values masked: a value is shown only
// as its length, since configs often carry literal tokens.
func writeMasked(b *strings.Builder, label string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b, "%s:\n", label)
	for _, k := range keys {
		fmt.Fprintf(b, "  %s = %s\n", wire.Printable(k, 80), mask(m[k]))
	}
}

func mask(v string) string {
	if v == "" {
		return `""`
	}
	return fmt.Sprintf("•••• (%d chars)", len(v))
}
