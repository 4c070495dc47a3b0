// Package secretenv names the environment variables that tai reads for
// secrets. Two consumers need the same list: redaction (these values never
// reach a screen or a log) and child processes (they never inherit them).
package secretenv

import (
	"os"
	"strings"
)

// Names lists the secret-bearing variables tai itself reads. Every variable
// starting with TAI_ is treated as secret too.
var Names = []string{
	"OPENAI_API_KEY",
	"ANTHROPIC_API_KEY",
	"OPENROUTER_API_KEY",
	"GROQ_API_KEY",
	"DEEPSEEK_API_KEY",
	"GITHUB_TOKEN",
}

// IsSecret reports whether the named variable may hold a secret of tai's.
func IsSecret(name string) bool {
	if strings.HasPrefix(name, "TAI_") {
		return true
	}
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Filter returns environ ("K=V" entries) without tai's secret variables.
func Filter(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !IsSecret(k) {
			out = append(out, kv)
		}
	}
	return out
}

// Values returns the current values of tai's secret variables, by name.
func Values() map[string]string {
	out := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if IsSecret(k) && v != "" {
			out[k] = v
		}
	}
	return out
}
