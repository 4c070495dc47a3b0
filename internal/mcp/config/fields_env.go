package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"tai/internal/lazyre"
)

// varName is the shape of a variable a reference can name.
var varName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// bareVar matches an env value that is nothing but $NAME, which Gemini CLI
// expands; tai reads it as ${NAME}. A $ inside a longer value stays literal.
var bareVar = lazyre.New(`^\$([A-Za-z_][A-Za-z0-9_]*)$`)

func readEnv(d *draft, k string, v any) error {
	env, err := wantStringMap(v, at(d.where, k))
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(env)) {
		if err := checkEnvName(name); err != nil {
			return fmt.Errorf("%s: %w", at(d.where, k), err)
		}
		if m := bareVar.FindStringSubmatch(env[name]); m != nil {
			env[name] = "${" + m[1] + "}"
			d.e.Notes = append(d.e.Notes, fmt.Sprintf("env %s: $%s read as ${%s}", name, m[1], m[1]))
		}
		d.setEnv(name, env[name])
	}
	return nil
}

// readEnvVars takes Codex's env_vars, the names of variables to forward
// from tai's environment. Each becomes NAME=${NAME}, which also lets a vault
// secret of that name stand in. Entries are names or {name, source} tables.
func readEnvVars(d *draft, k string, v any) error {
	where := at(d.where, k)
	list, ok := v.([]any)
	if tables, isTables := v.([]map[string]any); isTables {
		for _, t := range tables {
			list = append(list, t)
		}
		ok = true
	}
	if !ok {
		return typeError(where, "a list of variable names", v)
	}
	for i, x := range list {
		here := fmt.Sprintf("%s[%d]", where, i)
		if t, isTable := x.(map[string]any); isTable {
			x = t["name"]
			here += ".name"
		}
		name, err := wantString(x, here)
		if err != nil {
			return err
		}
		if !varName.MatchString(name) {
			return fmt.Errorf("%s: %s is not a variable name", here, quote(name))
		}
		if _, set := d.e.Env[name]; !set {
			d.setEnv(name, "${"+name+"}")
		}
	}
	return nil
}

// setEnv sets one variable. Keys are read in order, so env comes before
// env_vars and an explicit value wins.
func (d *draft) setEnv(name, value string) {
	if d.e.Env == nil {
		d.e.Env = map[string]string{}
	}
	d.e.Env[name] = value
}

func readHeaders(d *draft, k string, v any) error {
	h, err := wantStringMap(v, at(d.where, k))
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if err := d.setHeader(k, name, h[name]); err != nil {
			return err
		}
	}
	return nil
}

// readEnvHeaders takes Codex's env_http_headers: header name to the name
// of the variable holding its value, which becomes a ${VAR} reference.
// Codex sends an http_headers value for the same header when the variable
// is unset, so that value becomes the default: ${VAR:-value}.
func readEnvHeaders(d *draft, k string, v any) error {
	where := at(d.where, k)
	h, err := wantStringMap(v, where)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if !varName.MatchString(h[name]) {
			return fmt.Errorf("%s: %s is not a variable name", at(where, name), quote(h[name]))
		}
		ref := "${" + h[name] + "}"
		if have, old, ok := d.header(name); ok && !strings.ContainsAny(old, "${}") {
			delete(d.e.Headers, have)
			ref = "${" + h[name] + ":-" + old + "}"
		}
		if err := d.setHeader(k, name, ref); err != nil {
			return err
		}
	}
	return nil
}

// readBearer takes Codex's bearer_token_env_var: Authorization: Bearer ${VAR}.
func readBearer(d *draft, k string, v any) error {
	name, err := wantString(v, at(d.where, k))
	if err != nil {
		return err
	}
	if !varName.MatchString(name) {
		return fmt.Errorf("%s: %s is not a variable name", at(d.where, k), quote(name))
	}
	return d.setHeader(k, "Authorization", "Bearer ${"+name+"}")
}

// header finds a header already set, by case-insensitive name.
func (d *draft) header(name string) (have, value string, ok bool) {
	for h, v := range d.e.Headers {
		if strings.EqualFold(h, name) {
			return h, v, true
		}
	}
	return "", "", false
}

func (d *draft) setHeader(key, name, value string) error {
	if err := checkHeader(name, value); err != nil {
		return fmt.Errorf("%s: %w", at(d.where, key), err)
	}
	if _, _, ok := d.header(name); ok {
		return fmt.Errorf("%s: header %s is given twice: keep one", d.where, name)
	}
	if d.e.Headers == nil {
		d.e.Headers = map[string]string{}
	}
	d.e.Headers[name] = value
	return nil
}
