// Package secretenv names the environment variables that tai reads for
// secrets. Two consumers need them: redaction (these values never reach a
// screen, a log or the model) and child processes (which never inherit
// them, nor anything else of tai's own TAI_* configuration).
package secretenv

import (
	"os"
	"strings"
)

// Names lists the secret-bearing variables tai reads.
var Names = []string{
	"OPENAI_API_KEY",
	"ANTHROPIC_API_KEY",
	"OPENROUTER_API_KEY",
	"GROQ_API_KEY",
	"DEEPSEEK_API_KEY",
	"GITHUB_TOKEN",
	"TAI_API_KEY",
	"TAI_MCP_KEY",
	"TAI_VAULT_PASSPHRASE",
}

// IsSecret reports whether the named variable holds a secret of tai's.
func IsSecret(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Filter returns environ ("K=V" entries) without tai's secrets and without
// any TAI_* variable: what a child process such as an MCP server inherits.
func Filter(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !IsSecret(k) && !strings.HasPrefix(k, "TAI_") {
			out = append(out, kv)
		}
	}
	return out
}

// Values returns the current values of tai's secret variables, by name.
func Values() map[string]string {
	out := map[string]string{}
	for _, n := range Names {
		if v := os.Getenv(n); v != "" {
			out[n] = v
		}
	}
	return out
}
