// Package procguard keeps tai's own process from being read by the
// programs it starts: a shell command or an MCP server runs as the same
// user, and /proc/<tai>/environ and /proc/<tai>/mem would otherwise give
// it tai's API keys and vault passphrase whatever tai passes it.
package procguard

// Protect hardens the running process, as early as possible in main. Its
// steps are best effort: a kernel, container or sandbox that refuses one
// leaves tai as safe as it was without it, which must never stop tai from
// starting, so failures are not reported (protect reports them to tests).
//
// names are the environment variables whose values are secrets.
func Protect(names []string) {
	defer func() {
		// A defect here costs the hardening, never the start: recover
		// rather than take tai down.
		_ = recover()
	}()
	_ = protect(names)
}
