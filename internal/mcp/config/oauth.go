package config

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// OAuthClient is a client registered beforehand with a server's
// authorization server (from its developer console), as a pasted entry's
// "oauth" object gives it (Claude Code's .mcp.json shape) or tai mcp add
// --client-id does.
type OAuthClient struct {
	ClientID string
	// ClientSecret is the secret itself, a ${VAR} or ${input:ID}
	// reference read at login, or "" for a public client.
	ClientSecret string
	// CallbackPort is the loopback port its redirect URI names (0: any).
	CallbackPort int
	// Scopes replace the discovered ones on the first login, when set.
	Scopes []string
}

// SecretIsReference reports whether the client secret is a reference
// (${VAR}, ${input:ID}) rather than the secret itself.
func (o OAuthClient) SecretIsReference() bool {
	r, _ := secretRef(o.ClientSecret)
	return r != nil
}

// secretRef reads a client secret that is one reference, whole: nil when
// it holds none (the secret itself); an error when it mixes a reference
// with text or uses one tai does not expand.
func secretRef(s string) (*ref, error) {
	if !strings.Contains(s, "${") {
		return nil, nil
	}
	segs := scan(s)
	switch {
	case len(segs) == 1 && segs[0].ref != nil && segs[0].ref.kind != refUnsupported:
		return segs[0].ref, nil
	case len(segs) == 1 && segs[0].ref == nil:
		return nil, nil // $${ only: a literal
	}
	return nil, fmt.Errorf("write the secret itself, or one reference alone: ${NAME} or ${input:ID}")
}

// ExpandSecret is a client secret with its reference resolved (a
// variable from the environment, then the vault; an input from the vault),
// or the secret itself; a reference that resolves nowhere is an error
// saying where to supply it.
func ExpandSecret(s string, src Sources) (string, error) {
	r, err := secretRef(s)
	if err != nil || r == nil {
		if err != nil {
			return "", err
		}
		var b strings.Builder // the secret itself, $${ read as ${
		for _, sg := range scan(s) {
			b.WriteString(sg.lit)
		}
		return b.String(), nil
	}
	src = src.withDefaults()
	v, origin, err := src.resolve(r)
	if err != nil {
		return "", err
	}
	if origin == Unresolved {
		return "", fmt.Errorf("the OAuth client secret %s", missingWarning(r, src.SecretName))
	}
	return v, nil
}

// Check refuses a client that cannot be right: no client id, a client id
// or port a console never gives, control characters.
func (o OAuthClient) Check() error {
	switch {
	case strings.TrimSpace(o.ClientID) == "":
		return fmt.Errorf("oauth.clientId is empty: give the client id from the service's developer console")
	case len(o.ClientID) > 512 || strings.ContainsFunc(o.ClientID, isControl) || strings.ContainsAny(o.ClientID, " \t"):
		return fmt.Errorf("oauth.clientId must be one line of printable text without spaces, at most 512 bytes")
	case len(o.ClientSecret) > 4096 || strings.ContainsFunc(o.ClientSecret, isControl):
		return fmt.Errorf("oauth.clientSecret must be one line of printable text, at most 4096 bytes")
	case o.CallbackPort < 0 || o.CallbackPort > 65535:
		return fmt.Errorf("oauth.callbackPort %d is not a port: give 1 to 65535, or leave it out for any free one", o.CallbackPort)
	}
	if _, err := secretRef(o.ClientSecret); err != nil {
		return fmt.Errorf("oauth.clientSecret: %w", err)
	}
	for _, s := range o.Scopes {
		if s == "" || strings.ContainsFunc(s, isControl) || strings.ContainsAny(s, " \t\"\\") {
			return fmt.Errorf("oauth.scopes: %q is not a scope (printable, no spaces or quotes)", printable(s))
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// readOAuth takes "oauth": {clientId, clientSecret, callbackPort, scopes}.
func readOAuth(d *draft, k string, v any) error {
	where := at(d.where, k)
	m, err := wantObject(v, where)
	if err != nil {
		return err
	}
	var o OAuthClient
	for _, key := range slices.Sorted(maps.Keys(m)) {
		here := at(where, key)
		switch key {
		case "clientId", "client_id":
			o.ClientID, err = wantString(m[key], here)
		case "clientSecret", "client_secret":
			o.ClientSecret, err = wantString(m[key], here)
		case "callbackPort", "callback_port":
			var n float64
			n, err = wantSeconds(m[key], here)
			if err == nil && (n != math.Trunc(n) || n < 1 || n > 65535) {
				err = fmt.Errorf("%s: %v is not a port: give 1 to 65535", here, m[key])
			}
			o.CallbackPort = int(n)
		case "scopes":
			if s, ok := m[key].(string); ok {
				o.Scopes = strings.Fields(s)
			} else {
				o.Scopes, err = wantStrings(m[key], here)
			}
		default:
			d.ignored = append(d.ignored, k+"."+key)
		}
		if err != nil {
			return err
		}
	}
	if err := o.Check(); err != nil {
		return fmt.Errorf("%s: %w", d.where, err)
	}
	d.e.OAuth = &o
	return nil
}

// SandboxSpec is a pasted entry's "sandbox": {"network": false} narrows a
// server's confinement (no network), {"hosts": ["api.github.com"]} to
// those hosts only (through tai's proxy), {"write": ["~/notes"]} widens
// it (more writable directories). Nil fields leave the default.
type SandboxSpec struct {
	Network *bool
	Hosts   []string
	Write   []string
}

// CheckSandboxHost explains a sandbox host that is not one: a name or an
// address, with :PORT or without (any port), nothing else.
func CheckSandboxHost(h string) error {
	if h == "" || strings.ContainsAny(h, "/?#@ \t\n,") || strings.ContainsFunc(h, isControl) {
		return fmt.Errorf("%q is not a host: write a name or an address, with :PORT for one port", printable(h))
	}
	return nil
}

// readSandbox takes "sandbox": {network, hosts, write}.
func readSandbox(d *draft, k string, v any) error {
	where := at(d.where, k)
	m, err := wantObject(v, where)
	if err != nil {
		return err
	}
	var sb SandboxSpec
	for _, key := range slices.Sorted(maps.Keys(m)) {
		here := at(where, key)
		switch key {
		case "network":
			b, err := wantBool(m[key], here)
			if err != nil {
				return err
			}
			sb.Network = &b
		case "hosts":
			list, err := wantStrings(m[key], here)
			if err != nil {
				return err
			}
			for i, h := range list {
				if err := CheckSandboxHost(h); err != nil {
					return fmt.Errorf("%s[%d]: %w", here, i, err)
				}
				list[i] = strings.ToLower(h)
			}
			sb.Hosts = list
		case "write":
			list, err := wantStrings(m[key], here)
			if err != nil {
				return err
			}
			for i, p := range list {
				if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") || strings.ContainsFunc(p, isControl) || strings.Contains(p, "\n") {
					return fmt.Errorf("%s[%d]: %q is not a directory tai can grant: write an absolute path or one under ~/", here, i, printable(p))
				}
			}
			sb.Write = list
		default:
			d.ignored = append(d.ignored, k+"."+key)
		}
	}
	d.e.Sandbox = &sb
	return nil
}
