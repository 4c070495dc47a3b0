package bridge

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

// Describe is the consent screen for starting a server: the exact argv or
// URL that will run after expansion, the env in full (a value substituted
// from the environment shows as [env:NAME], one from the vault as
// [secret:NAME]), the headers masked, every ${VAR} the entry references
// with where it resolves from, and the normalizer's notes. Every character
// is shown (control and invisible ones as escapes) and a field holding
// such characters is flagged, as is a variable that changes what the
// server's programs load or run. why says what is being approved
// ("register", or "changed since you approved it").
func Describe(x config.Expanded, why string) tools.Consent {
	e := x.Entry
	hide := newHider(x)
	var b strings.Builder
	var title string
	var warnings []string
	if e.Transport == config.Stdio {
		line := hide.all(argv(e))
		// The title alone is what an approval given in advance (--yes,
		// --auto) prints, so it names the whole command line too.
		title = fmt.Sprintf("MCP server %s (%s): run %s", e.Name, why, wire.Printable(line, 160))
		fmt.Fprintf(&b, "will run: %s\n", textsafe.VisibleLine(line))
		if textsafe.Hidden(line) {
			warnings = append(warnings, "the command line"+hiddenChars)
		}
		if e.Cwd != "" {
			cwd := hide.field("cwd", e.Cwd)
			fmt.Fprintf(&b, "in: %s\n", textsafe.VisibleLine(cwd))
			if textsafe.Hidden(cwd) {
				warnings = append(warnings, "the working directory"+hiddenChars)
			}
		}
		writeEnvironment(&b, x)
		warnings = append(warnings, writeEnv(&b, e.Env, hide)...)
	} else {
		url := hide.field("url", e.URL)
		title = fmt.Sprintf("MCP server %s (%s): connect to %s", e.Name, why, wire.Printable(url, 120))
		fmt.Fprintf(&b, "will connect to: %s\n", textsafe.VisibleLine(url))
		if textsafe.Hidden(url) {
			warnings = append(warnings, "the URL"+hiddenChars)
		}
		warnings = append(warnings, writeHeaders(&b, e.Headers, hide)...)
	}
	if len(x.Refs) > 0 {
		b.WriteString("variables:\n")
		for _, r := range x.Refs {
			fmt.Fprintf(&b, "  %s from %s (in %s)\n", wire.Printable(r.Text, 80), r.Origin, textsafe.VisibleLine(strings.Join(r.Fields, ", ")))
		}
	}
	writeToolLists(&b, e)
	writeLimits(&b, e)
	if o := e.OAuth; o != nil {
		fmt.Fprintf(&b, "OAuth client (registered beforehand): %s; secret: %s", textsafe.VisibleLine(o.ClientID), maskedSecret(*o))
		if o.CallbackPort > 0 {
			fmt.Fprintf(&b, "; callback port %d", o.CallbackPort)
		}
		if len(o.Scopes) > 0 {
			fmt.Fprintf(&b, "; scopes %s", textsafe.VisibleLine(strings.Join(o.Scopes, " ")))
		}
		b.WriteString("\n")
	}
	for _, n := range e.Notes {
		fmt.Fprintf(&b, "note: %s\n", wire.Printable(n, 300))
	}
	for _, w := range append(warnings, x.Warnings...) {
		fmt.Fprintf(&b, "warning: %s\n", wire.Printable(w, 300))
	}
	if e.Source != "" {
		fmt.Fprintf(&b, "source: %s\n", wire.Printable(e.Source, 120))
	}
	return tools.Consent{Title: title, Detail: strings.TrimRight(b.String(), "\n")}
}

// writeToolLists shows the pasted allow and deny lists (enabled_tools,
// disabled_tools, includeTools, excludeTools), which decide what of the
// server the model is offered in every profile.
func writeToolLists(b *strings.Builder, e config.Entry) {
	if len(e.Allow) > 0 {
		fmt.Fprintf(b, "tools offered: only %s (the pasted allow list)\n", textsafe.VisibleLine(strings.Join(e.Allow, ", ")))
	}
	if len(e.Deny) > 0 {
		fmt.Fprintf(b, "tools withheld: %s (the pasted deny list)\n", textsafe.VisibleLine(strings.Join(e.Deny, ", ")))
	}
	if len(e.Allow) > 0 || len(e.Deny) > 0 {
		fmt.Fprintf(b, "  (tai mcp tools %s --enable TOOL or --disable TOOL changes this for a profile)\n", e.Name)
	}
}

// writeLimits shows the server's own timeouts from the paste, which
// replace the caps on its every start.
func writeLimits(b *strings.Builder, e config.Entry) {
	if e.CallTimeout > 0 {
		fmt.Fprintf(b, "timeout: %s for each request (in place of MCP_CALL_TIMEOUT, %s)\n", config.Seconds(e.CallTimeout), config.Seconds(config.CallLimit.Default))
	}
	if e.StartupTimeout > 0 {
		fmt.Fprintf(b, "startup timeout: %s for each start (in place of MCP_CONNECT_TIMEOUT, %s)\n", config.Seconds(e.StartupTimeout), config.Seconds(config.StartLimit.Default))
	}
	if e.CallTimeout > 0 || e.StartupTimeout > 0 {
		fmt.Fprintf(b, "  (tai mcp set %s timeout=… startup_timeout=… changes them)\n", e.Name)
	}
}

// hiddenChars completes a warning naming a field that holds characters a
// terminal would not show.
const hiddenChars = " contains control or invisible characters, shown as escapes"

// hider replaces substituted values with where they came from:
// [secret:NAME] for a vault secret, [env:NAME] for tai's environment, so
// the exact launch can be shown without showing those values.
type hider struct {
	x config.Expanded
	// global replaces every value of four characters or more, wherever it
	// appears; shorter ones are replaced only in the fields they went into.
	global *strings.Replacer
}

func newHider(x config.Expanded) hider {
	return hider{x: x, global: replacer(x, func(name, v string) bool { return len(v) >= 4 })}
}

// all hides the substituted values in s.
func (h hider) all(s string) string { return h.global.Replace(s) }

// field hides the substituted values in the value of field (env.NAME,
// headers.NAME), the short ones substituted there too.
func (h hider) field(field, s string) string {
	mine := map[string]bool{}
	for _, r := range h.x.Refs {
		if slices.Contains(r.Fields, field) {
			mine[r.Name] = true
		}
	}
	return replacer(h.x, func(name, v string) bool { return len(v) >= 4 || mine[name] }).Replace(s)
}

// sources lists the [secret:NAME] and [env:NAME] substituted into field.
func (h hider) sources(field string) []string {
	var out []string
	for _, r := range h.x.Refs {
		if _, ok := h.x.Secrets[r.Name]; ok && slices.Contains(r.Fields, field) {
			out = append(out, tag(h.x, r.Name))
		}
	}
	return slices.Compact(out)
}

// replacer replaces the values of x.Secrets that keep holds; longer values
// first, so one that contains another is replaced whole.
func replacer(x config.Expanded, keep func(name, v string) bool) *strings.Replacer {
	names := slices.Collect(maps.Keys(x.Secrets))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(x.Secrets[b]), len(x.Secrets[a])), cmp.Compare(a, b))
	})
	var pairs []string
	for _, n := range names {
		if v := x.Secrets[n]; v != "" && keep(n, v) {
			pairs = append(pairs, v, tag(x, n))
		}
	}
	return strings.NewReplacer(pairs...)
}

// tag is how a substituted value is shown: [env:NAME] when it came from
// tai's environment, else [secret:NAME].
func tag(x config.Expanded, name string) string {
	for _, r := range x.Refs {
		if r.Name == name && r.Origin == config.FromEnvironment {
			return "[env:" + textsafe.VisibleLine(name) + "]"
		}
	}
	return "[secret:" + textsafe.VisibleLine(name) + "]"
}

// argv renders the command line with shell-style quoting where needed.
func argv(e config.Entry) string {
	parts := []string{quote(e.Command)}
	for _, a := range e.Args {
		parts = append(parts, quote(a))
	}
	return strings.Join(parts, " ")
}

func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeEnv lists the environment the server gets from its entry, each
// value in full except what was substituted, and returns the warnings it
// calls for.
func writeEnv(b *strings.Builder, env map[string]string, hide hider) []string {
	if len(env) == 0 {
		return nil
	}
	var warnings []string
	b.WriteString("env:\n")
	for _, k := range slices.Sorted(maps.Keys(env)) {
		name, v := textsafe.VisibleLine(k), hide.field("env."+k, env[k])
		shown := textsafe.VisibleLine(v)
		if v == "" {
			shown = `""`
		}
		fmt.Fprintf(b, "  %s = %s\n", name, shown)
		if textsafe.Hidden(k) || textsafe.Hidden(v) {
			warnings = append(warnings, "env "+name+hiddenChars)
		}
		if ChangesWhatRuns(k) {
			warnings = append(warnings, name+" changes what the server's programs load or run; set it only if you meant to")
		}
	}
	return warnings
}

// writeHeaders lists the headers sent with every request, values masked
// (a literal value is as likely a credential as a substituted one), each
// saying where it came from.
func writeHeaders(b *strings.Builder, headers map[string]string, hide hider) []string {
	if len(headers) == 0 {
		return nil
	}
	var warnings []string
	b.WriteString("headers:\n")
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		name, v := textsafe.VisibleLine(k), headers[k]
		shown := `""`
		if v != "" {
			from := "as written in the entry"
			if src := hide.sources("headers." + k); len(src) > 0 {
				from = "from " + strings.Join(src, ", ")
			}
			shown = fmt.Sprintf("•••• (%d chars, %s)", len(v), from)
		}
		fmt.Fprintf(b, "  %s = %s\n", name, shown)
		if textsafe.Hidden(k) {
			warnings = append(warnings, "header "+name+hiddenChars)
		}
		if textsafe.Hidden(hide.field("headers."+k, v)) {
			warnings = append(warnings, "the value of header "+name+" contains control or invisible characters (the value is masked)")
		}
	}
	return warnings
}

// writeEnvironment says what a stdio server gets of the person's
// environment: the few variables every server inherits (see
// [client.InheritedEnv]), the entry's env, and among its env the variables
// passed through under their own name (Codex env_vars, "X": "${X}").
func writeEnvironment(b *strings.Builder, x config.Expanded) {
	rest := "plus env below"
	if len(x.Entry.Env) == 0 {
		rest = "nothing else"
	}
	fmt.Fprintf(b, "environment: only %s; %s\n", client.InheritedEnv(), rest)
	var passed []string
	for _, r := range x.Refs {
		if _, ok := x.Entry.Env[r.Name]; ok && r.Origin == config.FromEnvironment && r.Text == "${"+r.Name+"}" &&
			slices.Contains(r.Fields, "env."+r.Name) {
			passed = append(passed, wire.Printable(r.Name, 80))
		}
	}
	if len(passed) > 0 {
		slices.Sort(passed)
		fmt.Fprintf(b, "passed through from your environment: %s\n", strings.Join(passed, ", "))
	}
}
