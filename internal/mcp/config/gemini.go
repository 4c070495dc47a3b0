package config

import (
	"fmt"
	"strings"
)

// geminiKeys are server keys only Gemini CLI writes; a paste holding one
// is read as Gemini CLI's settings.json.
var geminiKeys = []string{"httpUrl", "includeTools", "excludeTools", "trust"}

// geminiShaped reports whether a JSON config is Gemini CLI's, by its keys.
func geminiShaped(doc map[string]any, groups []group) bool {
	servers := []map[string]any{doc}
	for _, g := range groups {
		for _, v := range g.servers {
			if m, ok := v.(map[string]any); ok {
				servers = append(servers, m)
			}
		}
	}
	for _, m := range servers {
		for _, k := range geminiKeys {
			if _, ok := m[k]; ok {
				return true
			}
		}
	}
	return false
}

// geminiVars rewrites $NAME inside any string of e as ${NAME}: Gemini CLI
// expands $NAME and ${NAME} anywhere in its settings' strings (a header
// "Bearer $TOKEN" included), so sending them literally would fail with a
// misleading 401. Each rewrite is noted, for the consent screen. Gemini
// CLI leaves an unset variable as written; tai refuses to start the
// server instead, naming what to set.
func geminiVars(e *Entry) {
	walk(e, func(label, s string) string {
		out, names := dollarVars(s)
		for _, n := range names {
			e.Notes = append(e.Notes, fmt.Sprintf("%s: $%s read as ${%s} (Gemini CLI expands $NAME in its strings)", label, n, n))
		}
		return out
	})
}

// dollarVars turns each $NAME in s that is not inside a ${…} nor after
// another $ into ${NAME}, returning the names it rewrote.
func dollarVars(s string) (string, []string) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	var names []string
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				end = len(s) - i - 1
			}
			b.WriteString(s[i : i+end+1])
			i += end + 1
		case strings.HasPrefix(s[i:], "$$"):
			// tai reads $${ as a literal ${, so $$NAME is left as written.
			b.WriteString("$$")
			i += 2
		case s[i] == '$' && i+1 < len(s) && isVarStart(s[i+1]):
			j := i + 2
			for j < len(s) && isVarChar(s[j]) {
				j++
			}
			names = append(names, s[i+1:j])
			b.WriteString("${" + s[i+1:j] + "}")
			i = j
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), names
}

func isVarStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func isVarChar(c byte) bool { return isVarStart(c) || c >= '0' && c <= '9' }
