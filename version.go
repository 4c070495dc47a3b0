// Package tai holds what belongs to the whole program rather than to one
// package: its version.
package tai

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var version string

// Version is the release in the repository's VERSION file.
var Version = strings.TrimSpace(version)
