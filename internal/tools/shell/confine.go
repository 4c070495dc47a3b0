package shell

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"tai/internal/egress"
	"tai/internal/sandbox"
	"tai/internal/tools"
)

// A command the shell tool runs (in the foreground, as a job, or as a
// REPL !command) is confined by the host's sandbox (tools.Env.Sandbox):
// it reads all but the protected paths, writes the workspace (never its
// .git/hooks or .git/config), the temporary directory and the package
// caches, and has no network; in read-only mode it writes only a private
// temporary directory. A command the model asks to run unsandboxed, or
// any command where the kernel cannot confine, asks the person first
// (tools.Consent.Unconfined). See docs/reliability.md, "The sandbox".

// unconfined reports whether a call of the shell would run outside a
// sandbox the host has.
func unconfined(env *tools.Env, a shellArgs) bool {
	if env == nil || env.Sandbox == nil || env.Sandbox.Mode == sandbox.Off {
		return false
	}
	return a.Unsandboxed || env.Sandbox.Unavailable != ""
}

// confined is how one command runs in the sandbox.
type confined struct {
	policy  sandbox.Policy
	private string        // a private temporary directory to remove at the end, "" when none
	proxy   *egress.Proxy // its way out; nil where it cannot have a network of its own
}

// confinement is how a command of env runs; nil when it runs unconfined.
// Release what it returns once the command ended.
func confinement(env *tools.Env, a shellArgs) (*confined, error) {
	sb := env.Sandbox
	if !sb.Confines() || a.Unsandboxed {
		return nil, nil
	}
	p, private, err := sb.Policy(append([]string{env.Dir}, env.Roots...))
	if err != nil {
		return nil, err
	}
	c := &confined{policy: p, private: private}
	if sandbox.CanProxy() {
		px, err := egress.Start(netReach(env, a.Command), egress.Options{Lookup: sb.Lookup, Inspect: secretsOut(env)})
		if err != nil {
			c.release()
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		c.proxy, c.policy.Proxy = px, px.Helper()
	}
	return c, nil
}

// release ends the proxy and removes the private temporary directory.
func (c *confined) release() {
	if c == nil {
		return
	}
	if c.proxy != nil {
		c.proxy.Close()
	}
	if c.private != "" {
		os.RemoveAll(c.private)
	}
}

// refusals says what the sandbox refused a command that failed with out
// as its output, in dir: the hosts the proxy refused, and what its output
// shows refused (sandbox.Explain); "" when nothing was.
func (c *confined) refusals(dir, out string) string {
	var lines []string
	if c.proxy != nil {
		for _, r := range c.proxy.Refused() {
			lines = append(lines, "[sandbox refused the network: "+r+"]")
		}
	}
	if why := sandbox.Explain(c.policy, dir, out); why != "" && (len(lines) == 0 || !strings.HasPrefix(why, "[sandbox refused: the network")) {
		lines = append(lines, why)
	}
	return strings.Join(lines, "\n")
}

// unavailableLine says why a command could not be confined.
func unavailableLine(err error) string {
	if errors.Is(err, sandbox.ErrUnavailable) {
		return fmt.Sprintf("%v; the command did not run. Run tai with --sandbox off to run commands unconfined", err)
	}
	return err.Error()
}
