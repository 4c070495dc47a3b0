package shell

import (
	"context"
	"fmt"
	"maps"
	"net"
	"strings"
	"sync"

	"tai/internal/egress"
	"tai/internal/leak"
	"tai/internal/profile"
	"tai/internal/secretenv"
	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/vault"
)

// A sandboxed command has no network, but its HTTP clients find tai's
// egress proxy (internal/egress), which asks here before each new host:
// the administrator's denied hosts are refused; a standing grant
// ("network HOST for PREFIX", every program prefix of the line covered)
// lets it through; under --yolo it goes; otherwise the person is asked
// (once, this command; always, the line's prefixes; no), and with nobody
// to ask it is refused with the grant that would allow it. Each answer is
// an audit row (vault.KindEgress).

// netReach is the proxy's Reach for one command line.
func netReach(env *tools.Env, line string) egress.Reach {
	return func(ctx context.Context, hostport string) (bool, error) {
		name, port, _ := net.SplitHostPort(hostport)
		host := hostport
		if port == "443" || port == "80" {
			host = name
			if strings.Contains(name, ":") {
				host = "[" + name + "]"
			}
		}
		local := tools.LocalHostApproved(ctx, env, name)
		prefixes := linePrefixes(line)
		err := decideHost(ctx, env, line, name, host, prefixes)
		outcome := vault.OutcomeOK
		if err != nil {
			outcome = vault.OutcomeDenied
		}
		if env.Store != nil {
			_ = env.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: env.Profile, Kind: vault.KindEgress,
				Subject: host + tools.NetworkFor + oneLine(line, 200), Outcome: outcome})
		}
		return local, err
	}
}

// decideHost returns nil when the command may reach host, else the
// refusal.
func decideHost(ctx context.Context, env *tools.Env, line, name, host string, prefixes []string) error {
	quoted := "`" + textsafe.VisibleLine(oneLine(line, 120)) + "`"
	if sb := env.Sandbox; sb != nil && sb.DeniedHost != nil && sb.DeniedHost(name) {
		return fmt.Errorf("%s is denied by the administrator's policy (tai doctor shows it)", host)
	}
	if networkGranted(ctx, env, host, prefixes) {
		return nil
	}
	if env.Approval == profile.ApprovalYolo {
		return nil
	}
	grantHint := "run this one command with \"unsandboxed\": true, which asks the person"
	if len(prefixes) > 0 {
		grantHint = fmt.Sprintf("the person can allow it with `tai permissions grant network \"%s%s%s\"`", host, tools.NetworkFor, prefixes[0])
	}
	if env.Prompter == nil {
		return fmt.Errorf("%s: nobody is here to approve the command %s reaching it; %s", host, quoted, grantHint)
	}
	once, always, no := "yes, this once", "always", "no"
	choices := []string{once}
	if len(prefixes) > 0 && env.Store != nil {
		always = fmt.Sprintf("always: %s for commands starting `%s`", host, strings.Join(prefixes, "`, `"))
		choices = append(choices, always)
	}
	choices = append(choices, no)
	q := fmt.Sprintf("The sandboxed command %s wants to reach %s through tai's proxy (its network is otherwise off).", quoted, textsafe.VisibleLine(host))
	answer, err := env.Prompter.Ask(ctx, q, choices)
	switch {
	case err != nil:
		return fmt.Errorf("%s: not approved (%v)", host, err)
	case answer == once:
		return nil
	case answer == always && len(prefixes) > 0 && env.Store != nil:
		for _, p := range prefixes {
			if err := env.Store.AddGrant(ctx, env.Profile, tools.GrantNetwork, host+tools.NetworkFor+p); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s: the person said no to the command %s reaching it", host, quoted)
}

// networkGranted reports whether every program prefix of the line holds
// a network grant for host.
func networkGranted(ctx context.Context, env *tools.Env, host string, prefixes []string) bool {
	if env.Store == nil || len(prefixes) == 0 {
		return false
	}
	for _, p := range prefixes {
		ok, err := env.Store.HasGrant(ctx, env.Profile, tools.GrantNetwork, host+tools.NetworkFor+p)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// linePrefixes are the program prefixes of line ("npm install", "git
// fetch"), as command grants name them; none when any part of the line
// cannot be named.
func linePrefixes(line string) []string {
	var out []string
	for _, g := range commandGrants(line) {
		out = append(out, g.Subject)
	}
	return out
}

// secretsOut refuses what would carry a known secret (a vault secret or
// one of tai's own keys, in any common encoding) to a host, as the web
// tools do; the index is built at the first request.
func secretsOut(env *tools.Env) func(string) error {
	var once sync.Once
	var idx *leak.Index
	return func(text string) error {
		once.Do(func() {
			secrets := secretenv.Values()
			if env.Store != nil {
				maps.Copy(secrets, env.Store.KnownSecrets(context.Background()))
			}
			idx = leak.NewIndex(secrets)
		})
		if name, how, found := idx.Find(text); found {
			if how != "" && how != "plain" {
				name += " (" + how + ")"
			}
			return fmt.Errorf("refused: the request would carry the secret %s; tai never sends a known secret to a host", name)
		}
		return nil
	}
}
