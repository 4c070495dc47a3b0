package config

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
)

// Origin says where a reference's value came from.
type Origin string

const (
	FromEnvironment Origin = "environment"
	FromSecret      Origin = "vault secret"
	FromDefault     Origin = "default"    // the :-default written in the reference
	FromPredefined  Origin = "predefined" // ${userHome}, ${workspaceFolder}, …
	Unresolved      Origin = "missing"
)

// Ref is one reference an entry makes, as the consent screen shows it:
// where it resolves from, never its value.
type Ref struct {
	Text   string // canonical, as stored: ${GITHUB_TOKEN}, ${input:api-key}
	Name   string // the variable name or input id
	Origin Origin
	// Fields says where it appears: command, args[2], env.API_KEY, url,
	// headers.Authorization, cwd.
	Fields []string
}

// Sources are where [ExpandVars] looks values up.
type Sources struct {
	// Env looks a variable up in tai's environment; nil means os.LookupEnv.
	Env func(name string) (string, bool)
	// Secret looks a vault secret up for the current profile; nil means
	// no vault. It gets the name as written (a variable name or an input
	// id) and should clamp it onto SECRET_RE (vault.ClampSecretName). An
	// error, such as a sealed vault, stops the expansion.
	Secret func(name string) (value string, ok bool, err error)
	// Public reports variables every server receives anyway (HOME, PATH,
	// USER …): their values in arguments are shown as they are, not masked
	// as secrets. Nil means none.
	Public func(name string) bool
	// SecretName is the vault name Secret looks name up under, for the
	// messages that say what to store; nil means name itself.
	SecretName func(name string) string
	// Home answers ${userHome}; Dir answers ${workspaceFolder} and
	// ${workspaceFolderBasename}. Empty leaves those names to Env and Secret.
	Home, Dir string
	// GOOS is the system the server runs on; empty means runtime.GOOS.
	GOOS string
}

// Expanded is an entry with its references substituted, ready to spawn or
// dial unless Missing is non-empty.
type Expanded struct {
	// Entry has every resolved reference replaced by its value and every
	// unresolved one kept as written. On windows an npx command is wrapped
	// as cmd /c npx …; uvx never is.
	Entry Entry
	// Refs lists every reference in the order the entry first makes it.
	Refs []Ref
	// Secrets holds substituted values by name, for redaction and for
	// consent screens and errors, which show them as [secret:NAME] or
	// [env:NAME]: every value from the vault, and every value from the
	// environment that went into env, headers or the url (docs/host.md §2) or
	// into an argument (--api-key ${KEY}), unless every server receives
	// that variable anyway (Sources.Public). The program itself and the
	// working directory are shown as they expand: they say what runs.
	// Defaults are not secrets.
	Secrets map[string]string
	// Missing lists, as written, the references that resolved nowhere.
	// When it is not empty the server must not be spawned or dialled.
	Missing []string
	// Warnings say, one line each, what is missing and how to supply it.
	Warnings []string
}

// Err is nil when every reference resolved, else one line naming what is
// missing and where each must be supplied (an ${input:ID} only in the
// vault), for refusing the spawn or connect.
func (x *Expanded) Err() error {
	if len(x.Missing) == 0 {
		return nil
	}
	return fmt.Errorf("server %s cannot start: %s", x.Entry.Name, strings.Join(x.Warnings, "; "))
}

// ExpandVars substitutes the references in e's command, args, env values,
// url, header values and cwd (see vars.go for the syntax): a variable from
// the environment first, then the vault, then its default; an input from
// the vault only. It fails only when a source fails or a substituted value
// cannot be carried (a line break in a header, a url that is no longer
// http); anything unresolved is reported in Missing instead.
func ExpandVars(e Entry, src Sources) (Expanded, error) {
	src = src.withDefaults()
	x := Expanded{Entry: clone(e), Secrets: map[string]string{}}
	seen := map[string]int{}
	var failed error
	walk(&x.Entry, func(label, s string) string {
		if failed != nil || !strings.Contains(s, "${") {
			return s
		}
		var b strings.Builder
		for _, sg := range scan(s) {
			if sg.ref == nil {
				b.WriteString(sg.lit)
				continue
			}
			v, origin, err := src.resolve(sg.ref)
			if err != nil {
				failed = err
				return s
			}
			x.record(sg.ref, origin, label, v, seen, src)
			if origin == Unresolved {
				v = sg.ref.canonical()
			}
			b.WriteString(v)
		}
		return b.String()
	})
	if failed != nil {
		return Expanded{}, failed
	}
	wrapNpx(&x.Entry, src.GOOS)
	if len(x.Missing) == 0 {
		if err := checkExpanded(e, x.Entry); err != nil {
			return Expanded{}, err
		}
	}
	return x, nil
}

// record notes one occurrence of r in the field label.
func (x *Expanded) record(r *ref, origin Origin, label, value string, seen map[string]int, src Sources) {
	text := r.canonical()
	if i, ok := seen[text]; ok {
		if !slices.Contains(x.Refs[i].Fields, label) {
			x.Refs[i].Fields = append(x.Refs[i].Fields, label)
		}
	} else {
		seen[text] = len(x.Refs)
		x.Refs = append(x.Refs, Ref{Text: text, Name: r.name, Origin: origin, Fields: []string{label}})
		if origin == Unresolved {
			x.Missing = append(x.Missing, printable(text))
			x.Warnings = append(x.Warnings, missingWarning(r, src.SecretName))
		}
	}
	carried := label == "url" || strings.HasPrefix(label, "env.") || strings.HasPrefix(label, "headers.")
	arg := strings.HasPrefix(label, "args[")
	sensitive := origin == FromSecret || origin == FromEnvironment &&
		(carried || arg && (src.Public == nil || !src.Public(r.name)))
	if sensitive && value != "" {
		x.Secrets[r.name] = value
	}
}

func missingWarning(r *ref, secretName func(string) string) string {
	stored := r.name
	if secretName != nil {
		stored = secretName(r.name)
	}
	switch r.kind {
	case refInput:
		return fmt.Sprintf("%s: no vault secret %s; store it with tai secret set %s", printable(r.canonical()), shown(stored), shown(stored))
	case refUnsupported:
		return fmt.Sprintf("%s is not a reference tai expands: write ${NAME}, ${NAME:-default} or ${input:ID}, or $${ for a literal ${", printable(r.text))
	}
	return fmt.Sprintf("%s is not set in the environment or the vault: export it or store it with tai secret set %s", printable(r.canonical()), shown(stored))
}

func (src Sources) withDefaults() Sources {
	if src.Env == nil {
		src.Env = os.LookupEnv
	}
	if src.GOOS == "" {
		src.GOOS = runtime.GOOS
	}
	return src
}

func clone(e Entry) Entry {
	e.Args = slices.Clone(e.Args)
	e.Env = maps.Clone(e.Env)
	e.Headers = maps.Clone(e.Headers)
	e.Allow = slices.Clone(e.Allow)
	e.Deny = slices.Clone(e.Deny)
	e.Notes = slices.Clone(e.Notes)
	if e.Enabled != nil {
		b := *e.Enabled
		e.Enabled = &b
	}
	return e
}

// printable shows text as is when it is plain printable ASCII, else quoted.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return quote(s)
		}
	}
	return s
}
