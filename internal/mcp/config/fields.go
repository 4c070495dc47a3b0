package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// draft is an entry being read from one server object of any dialect: the
// JSON configs and Codex TOML share one set of keys, so one reader serves
// both and a key means the same wherever it appears.
type draft struct {
	e       Entry
	where   string // path of the server object, for errors
	typ     string
	urls    map[string]string // url, httpUrl, serverUrl as given
	ignored []string          // keys tai does not use
	trust   []string          // auto-approval keys, ignored with a note
}

type keyReader func(d *draft, key string, v any) error

// keys maps every key tai reads to its reader.
var keys = map[string]keyReader{
	"type":                 readType,
	"command":              readCommand,
	"args":                 readArgs,
	"env":                  readEnv,
	"env_vars":             readEnvVars,
	"cwd":                  readCwd,
	"url":                  readURL,
	"httpUrl":              readURL, // Gemini CLI: Streamable HTTP
	"serverUrl":            readURL, // Windsurf
	"headers":              readHeaders,
	"http_headers":         readHeaders, // Codex
	"env_http_headers":     readEnvHeaders,
	"bearer_token_env_var": readBearer,
	"enabled":              readEnabled,
	"disabled":             readEnabled,
	"enabled_tools":        readTools,
	"includeTools":         readTools, // Gemini CLI
	"disabled_tools":       readTools,
	"excludeTools":         readTools,
	"timeout":              readCallTimeout, // Gemini CLI (ms), Cline, Crush (s)
	"startup_timeout_sec":  readStartup,     // Codex
	"startup_timeout_ms":   readStartup,     // Codex
	"tool_timeout_sec":     readCallTimeout, // Codex
	"oauth":                readOAuth,       // Claude Code: a pre-registered client
	"sandbox":              readSandbox,     // tai: a server's confinement, narrowed or widened
	"trust":                readTrust,       // Gemini CLI
	"autoApprove":          readTrust,       // Cline
	"alwaysAllow":          readTrust,       // Roo Code
}

// decodeEntry reads the server object m, registered under raw, at where.
func decodeEntry(raw, where string, m map[string]any, source string) (Entry, error) {
	d := &draft{where: where, urls: map[string]string{}}
	d.e.Source = source
	if err := setName(&d.e, raw); err != nil {
		return Entry{}, fmt.Errorf("%s: %w", where, err)
	}
	for _, k := range keyOrder(m) {
		read, ok := keys[k]
		if !ok {
			d.ignored = append(d.ignored, k)
			continue
		}
		if err := read(d, k, m[k]); err != nil {
			return Entry{}, err
		}
	}
	if err := d.settle(); err != nil {
		return Entry{}, err
	}
	if err := checkStrings(d.e); err != nil {
		return Entry{}, err
	}
	d.note()
	return d.e, nil
}

// lateKeys are read after the others: they complete what env and
// http_headers set.
var lateKeys = map[string]bool{"env_vars": true, "env_http_headers": true, "bearer_token_env_var": true}

// keyOrder is m's keys sorted, lateKeys last.
func keyOrder(m map[string]any) []string {
	var early, late []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if lateKeys[k] {
			late = append(late, k)
		} else {
			early = append(early, k)
		}
	}
	return append(early, late...)
}

func readType(d *draft, k string, v any) error {
	s, err := wantString(v, at(d.where, k))
	d.typ = s
	return err
}

func readCommand(d *draft, k string, v any) error {
	s, err := wantString(v, at(d.where, k))
	if err == nil && strings.TrimSpace(s) == "" {
		err = fmt.Errorf("%s is empty: give the program that starts the server", at(d.where, k))
	}
	d.e.Command = s
	return err
}

func readArgs(d *draft, k string, v any) error {
	list, err := wantStrings(v, at(d.where, k))
	d.e.Args = list
	return err
}

func readCwd(d *draft, k string, v any) error {
	s, err := wantString(v, at(d.where, k))
	d.e.Cwd = s
	return err
}

func readURL(d *draft, k string, v any) error {
	s, err := wantString(v, at(d.where, k))
	if err == nil && strings.TrimSpace(s) == "" {
		err = fmt.Errorf("%s is empty: give the server's address", at(d.where, k))
	}
	d.urls[k] = s
	return err
}

func readEnabled(d *draft, k string, v any) error {
	b, err := wantBool(v, at(d.where, k))
	if k == "disabled" {
		b = !b
	}
	if d.e.Enabled != nil && *d.e.Enabled != b {
		return fmt.Errorf("%s: enabled and disabled disagree: keep one", d.where)
	}
	d.e.Enabled = &b
	return err
}

func readTools(d *draft, k string, v any) error {
	list, err := wantStrings(v, at(d.where, k))
	if err != nil {
		return err
	}
	target := &d.e.Allow
	if k == "disabled_tools" || k == "excludeTools" {
		target = &d.e.Deny
	}
	for i, t := range list {
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("%s[%d] is empty: name a tool", at(d.where, k), i)
		}
	}
	*target = append(*target, list...)
	return nil
}

func readTrust(d *draft, k string, _ any) error {
	d.trust = append(d.trust, k)
	return nil
}
