// Package tai holds what belongs to the whole program rather than to one
// package: its version.
package tai

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

//go:embed VERSION
var version string

// Version is the release in the repository's VERSION file.
var Version = strings.TrimSpace(version)

// Commit and Date are stamped by make release (-ldflags -X): the commit
// built and its commit time, which keeps the build reproducible. A plain
// go build takes them from the VCS information Go records, when there is
// some.
var Commit, Date string

// Describe is the version, commit and build date on one line, for
// tai --version.
func Describe() string {
	commit, date := Commit, Date
	if info, ok := debug.ReadBuildInfo(); ok && commit == "" {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					commit += "-dirty"
				}
			}
		}
	}
	if commit == "" {
		commit = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return Version + " (commit " + commit + ", built " + date + ")"
}
