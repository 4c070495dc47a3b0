// Package shell holds the shell and job tools and env_info: command lines
// run by /bin/sh in a process group of their own, with output streamed and
// capped, and the read-only allowlist that decides which need no approval.
package shell

import (
	"embed"
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

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// group declares this group's tools.
var group = tools.Group{Name: Group, Docs: docs}

// Shell returns the shell tool. A call is safe only when it runs in the
// foreground and every part of its command line is read-only (see
// [ReadOnly]).
func Shell() *tools.Tool {
	t := group.Tool(ShellName, nil)
	t.Description += shellNote()
	return tools.Define(t, runShell, shellSafe, tools.ConsentBy(shellConsent), tools.ReachBy(shellReach))
}

// JobOutput returns the job_output tool. It only reads, so it is safe.
func JobOutput() *tools.Tool {
	return tools.Define(group.Tool(JobOutputName, tools.AlwaysSafe), runJobOutput)
}

// JobInput returns the job_input tool. Input can make a program do
// anything, so it is never safe.
func JobInput() *tools.Tool {
	return tools.Define(group.Tool(JobInputName, nil), runJobInput, tools.ConsentBy(jobInputConsent))
}

// JobKill returns the job_kill tool. Stopping a process midway changes
// what it leaves behind, so it is never safe.
func JobKill() *tools.Tool {
	return tools.Define(group.Tool(JobKillName, nil), runJobKill, tools.ConsentBy(jobKillConsent))
}

// EnvInfo returns the env_info tool. It only reads, so it is safe.
func EnvInfo() *tools.Tool {
	return tools.Define(group.Tool(EnvInfoName, tools.AlwaysSafe), runEnvInfo)
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

// Tool names.
const (
	ShellName     = "shell"
	JobOutputName = "job_output"
	JobInputName  = "job_input"
	JobKillName   = "job_kill"
	EnvInfoName   = "env_info"
)
