package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// resolve finds one reference's value and where it came from.
func (src Sources) resolve(r *ref) (string, Origin, error) {
	switch r.kind {
	case refUnsupported:
		return "", Unresolved, nil
	case refInput:
		v, ok, err := src.secret(r.name)
		if err != nil || !ok {
			return "", Unresolved, err
		}
		return v, FromSecret, nil
	}
	if v, ok := src.predefined(r.name); ok {
		return v, FromPredefined, nil
	}
	// With a default, an empty value counts as unset, as in the shell's :-.
	if v, ok := src.Env(r.name); ok && (v != "" || !r.hasDef) {
		return v, FromEnvironment, nil
	}
	v, ok, err := src.secret(r.name)
	if err != nil {
		return "", Unresolved, err
	}
	if ok && (v != "" || !r.hasDef) {
		return v, FromSecret, nil
	}
	if r.hasDef {
		return r.def, FromDefault, nil
	}
	return "", Unresolved, nil
}

func (src Sources) secret(name string) (string, bool, error) {
	if src.Secret == nil {
		return "", false, nil
	}
	v, ok, err := src.Secret(name)
	if err != nil {
		return "", false, fmt.Errorf("reading vault secret %s: %w", shown(name), err)
	}
	return v, ok, nil
}

// predefined answers the editor variables VS Code and Cursor configs use,
// when the caller told us their values.
func (src Sources) predefined(name string) (string, bool) {
	switch {
	case name == "userHome" && src.Home != "":
		return src.Home, true
	case name == "workspaceFolder" && src.Dir != "":
		return src.Dir, true
	case name == "workspaceFolderBasename" && src.Dir != "":
		return filepath.Base(src.Dir), true
	case name == "pathSeparator":
		if src.GOOS == "windows" {
			return `\`, true
		}
		return "/", true
	}
	return "", false
}

// wrapNpx runs npx through cmd /c on Windows, where npx is a batch file
// that CreateProcess cannot start by itself. uvx is an executable and is
// never wrapped.
func wrapNpx(e *Entry, goos string) {
	if goos != "windows" || e.Transport != Stdio {
		return
	}
	if prog := strings.ToLower(base(e.Command)); prog != "npx" && prog != "npx.cmd" {
		return
	}
	e.Args = append([]string{"/c", e.Command}, e.Args...)
	e.Command = "cmd"
}

// checkExpanded refuses substituted values that cannot be carried. Errors
// quote the entry as written, never a substituted value.
func checkExpanded(before, after Entry) error {
	if after.Transport == HTTP && after.URL != before.URL {
		if err := checkURL(after.URL); err != nil {
			return fmt.Errorf("server %s: url %s does not expand to an http or https address", after.Name, printable(before.URL))
		}
	}
	return checkStrings(after)
}
