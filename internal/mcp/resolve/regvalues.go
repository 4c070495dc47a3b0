package resolve

import (
	"strings"

	"tai/internal/lazyre"
)

// value is what tai writes for a registry input: its value with {var}
// references made ${VAR}; for one a person must supply, ${name} (read from
// the environment or the vault at use time); else its default. ok is
// false for an optional input with neither.
func (v regValue) value(name string) (string, bool) {
	switch {
	case v.Value != "":
		return substitute(v.Value, v.Variables), true
	case v.IsRequired || v.IsSecret:
		return "${" + name + "}", true
	case v.Default != "":
		return substitute(v.Default, v.Variables), true
	}
	return "", false
}

var registryVar = lazyre.New(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// substitute rewrites the registry's {var} references in s: a variable
// with a value or default becomes that text, any other ${VAR}. A literal
// ${ in s is escaped, so a registry file cannot reach tai's variables
// except through the references it declares.
func substitute(s string, vars map[string]regInput) string {
	var b strings.Builder
	last := 0
	for _, m := range registryVar.FindAllStringSubmatchIndex(s, -1) {
		if m[0] > 0 && s[m[0]-1] == '$' {
			continue // ${…} is not the registry's syntax: literal
		}
		b.WriteString(escapeRefs(s[last:m[0]]))
		name := s[m[2]:m[3]]
		switch v := vars[name]; {
		case v.Value != "":
			b.WriteString(escapeRefs(v.Value))
		case v.Default != "" && !v.IsSecret:
			b.WriteString(escapeRefs(v.Default))
		default:
			b.WriteString("${" + envName(name) + "}")
		}
		last = m[1]
	}
	b.WriteString(escapeRefs(s[last:]))
	return b.String()
}

func escapeRefs(s string) string { return strings.ReplaceAll(s, "${", "$${") }

// envName turns a registry name (api_key, X-API-Key) into a variable
// name (API_KEY, X_API_KEY).
func envName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "V_" + n
	}
	return n
}

// camelKeys rewrites snake_case keys (server.json before 2025-09) as
// camelCase, recursively; the values of variables maps keep their keys.
func camelKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if k == "variables" {
				if m, ok := x.(map[string]any); ok {
					vars := map[string]any{}
					for name, in := range m {
						vars[name] = camelKeys(in)
					}
					out[k] = vars
					continue
				}
			}
			out[camel(k)] = camelKeys(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = camelKeys(x)
		}
		return out
	}
	return v
}

func camel(k string) string {
	if !strings.Contains(k, "_") || strings.HasPrefix(k, "_") {
		return k
	}
	parts := strings.Split(k, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
