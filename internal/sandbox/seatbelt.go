package sandbox

import (
	"fmt"
	"strings"
)

// On macOS a command runs under sandbox-exec with a Seatbelt profile made
// from its Policy. The profile allows by default and then denies: reading
// the protected paths, writing anywhere but the writable directories (and
// never their kept paths), the network (unless the policy has it), and
// signals to processes outside the command's own sandbox. Every path
// reaches sandbox-exec as a parameter (-D NAME=PATH, read by (param
// "NAME")), never as profile text, so no path can change the profile.
// Later rules win over earlier ones, as in Apple's own profiles.

// seatbelt returns the profile of p and its parameters, NAME=PATH each.
// A path is given as written and as its real path (macOS's /tmp and /var
// are links into /private).
func seatbelt(p Policy) (profile string, params []string) {
	var b strings.Builder
	n := 0
	param := func(path string) string {
		name := fmt.Sprintf("P%d", n)
		n++
		params = append(params, name+"="+path)
		return fmt.Sprintf("(param %q)", name)
	}
	b.WriteString("(version 1)\n(allow default)\n")
	if prot := realPaths(p.Protected); len(prot) > 0 {
		b.WriteString("(deny file-read* file-write*")
		for _, path := range prot {
			fmt.Fprintf(&b, "\n  (subpath %s)", param(path))
		}
		b.WriteString(")\n")
	}
	b.WriteString("(deny file-write*)\n(allow file-write*")
	for _, w := range realPaths(p.Write) {
		fmt.Fprintf(&b, "\n  (subpath %s)", param(w))
	}
	b.WriteString("\n  (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/tty\") (literal \"/dev/dtracehelper\")" +
		"\n  (regex #\"^/dev/ttys[0-9]+$\") (regex #\"^/dev/fd/[0-9]+$\"))\n")
	if keep := realPaths(p.Keep); len(keep) > 0 {
		b.WriteString("(deny file-write*")
		for _, k := range keep {
			fmt.Fprintf(&b, "\n  (subpath %s)", param(k))
		}
		b.WriteString(")\n")
	}
	if prot := realPaths(p.Protected); len(prot) > 0 {
		b.WriteString("(deny file-write*") // protected inside a writable directory
		for _, path := range prot {
			fmt.Fprintf(&b, "\n  (subpath %s)", param(path))
		}
		b.WriteString(")\n")
	}
	if !p.Network {
		b.WriteString("(deny network*)\n")
	}
	b.WriteString("(deny signal (target others))\n(allow signal (target same-sandbox))\n")
	return b.String(), params
}
