// Package shell holds the shell and job tools and env_info: command lines
// run by /bin/sh in a process group of their own, with output streamed and
// capped, and the read-only allowlist that decides which need no approval.
package shell

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"tai/internal/tools"
)

// Group is the catalogue group of every tool in this package.
const Group = "shell"

// Tools returns the group's tools.
func Tools() []*tools.Tool {
	return []*tools.Tool{Shell(), JobOutput(), JobInput(), JobKill(), EnvInfo()}
}

// oneLine shortens s to its first line and at most n runes, for titles.
func oneLine(s string, n int) string {
	s = strings.TrimSpace(s)
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if utf8.RuneCountInString(s) > n {
		s, cut = string([]rune(s)[:n]), true
	}
	if cut {
		s += " …"
	}
	return s
}

// seconds formats a whole number of seconds.
func seconds(n int) string { return fmt.Sprintf("%ds", n) }
