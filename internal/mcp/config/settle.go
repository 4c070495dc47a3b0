package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"

	"tai/internal/lazyre"
)

// settle decides the transport once every key is read, applying the
// repair rules: an entry with a url and no type gains http, type sse is
// read as Streamable HTTP, keys of the other transport are dropped.
func (d *draft) settle() error {
	u, err := d.pickURL()
	if err != nil {
		return err
	}
	typ, err := d.transportType()
	if err != nil {
		return err
	}
	switch {
	case d.e.Command != "" && u != "":
		return fmt.Errorf("%s: has both command and url: keep command for a server tai starts, or url for one it connects to", d.where)
	case d.e.Command == "" && u == "":
		return fmt.Errorf("%s: has neither command nor url: give the program to start or the server's address", d.where)
	case d.e.Command != "":
		if typ != "" && typ != Stdio {
			return fmt.Errorf("%s: type %s needs a url, but the entry has a command", d.where, quote(d.typ))
		}
		d.e.Transport = Stdio
		d.drop(d.e.Headers != nil, "headers")
		d.e.Headers = nil
		if d.e.OAuth != nil {
			return fmt.Errorf("%s: oauth is for a server tai connects to by url; give a command its credentials through its env", d.where)
		}
	default:
		if typ == Stdio {
			return fmt.Errorf("%s: type stdio needs a command, but the entry has a url", d.where)
		}
		if err := d.settleHTTP(u, typ); err != nil {
			return err
		}
	}
	d.rewriteEnvRefs()
	return nil
}

func (d *draft) settleHTTP(u, typ string) error {
	d.e.Transport = HTTP
	d.e.URL = u
	if d.e.Sandbox != nil {
		d.e.Notes = append(d.e.Notes, "sandbox ignored: it confines a server tai starts, and this one runs elsewhere")
		d.e.Sandbox = nil
	}
	d.drop(d.e.Args != nil, "args")
	d.drop(d.e.Env != nil, "env")
	d.drop(d.e.Cwd != "", "cwd")
	d.e.Args, d.e.Env, d.e.Cwd = nil, nil, ""
	if typ == "sse" {
		d.e.Notes = append(d.e.Notes, `type "sse" is the legacy HTTP+SSE transport, which tai does not implement: tai speaks Streamable HTTP to this url`)
	} else if typ == "" && strings.HasSuffix(strings.TrimRight(u, "/"), "/sse") {
		d.e.Notes = append(d.e.Notes, "the url ends in /sse, a legacy HTTP+SSE endpoint: tai speaks only Streamable HTTP, so the server must accept it there")
	}
	if strings.Contains(u, "${") {
		return nil // checked once expanded
	}
	if err := checkURL(u); err != nil {
		return fmt.Errorf("%s: %w", d.where, err)
	}
	if p, _ := url.Parse(u); p.Scheme == "http" && !isLoopback(p.Hostname()) {
		d.e.Notes = append(d.e.Notes, "plain http to a remote host: headers and tokens travel unencrypted")
	}
	return nil
}

// pickURL reconciles url, httpUrl and serverUrl.
func (d *draft) pickURL() (string, error) {
	var u, from string
	for _, k := range slices.Sorted(maps.Keys(d.urls)) {
		if u != "" && d.urls[k] != u {
			return "", fmt.Errorf("%s: %s and %s disagree: keep one", d.where, from, k)
		}
		u, from = d.urls[k], k
	}
	return u, nil
}

// transportType maps the spellings of type in the wild onto tai's names;
// "sse" stays apart so it can be noted.
func (d *draft) transportType() (string, error) {
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(d.typ)) {
	case "":
		return "", nil
	case "stdio":
		return Stdio, nil
	case "http", "streamablehttp":
		return HTTP, nil
	case "sse":
		return "sse", nil
	}
	return "", fmt.Errorf("%s: unknown type %s: use \"stdio\" with a command or \"http\" with a url", d.where, quote(d.typ))
}

// drop notes a key that does not apply to the entry's transport.
func (d *draft) drop(present bool, key string) {
	if !present {
		return
	}
	why := "tai starts no program for a url server"
	if d.e.Transport == Stdio {
		why = "a server tai starts gets no HTTP headers"
	}
	d.e.Notes = append(d.e.Notes, key+" ignored: "+why)
}

// placeholder matches a value that is only a <placeholder> from the docs.
var placeholder = lazyre.New(`^<[^<>]+>$`)

// note records what was read but not used, and values left unfilled.
func (d *draft) note() {
	walk(&d.e, func(label, s string) string {
		if placeholder.MatchString(s) && (strings.HasPrefix(label, "env.") || strings.HasPrefix(label, "headers.")) {
			d.e.Notes = append(d.e.Notes, fmt.Sprintf("%s is %s, a placeholder: replace it, or write ${VAR} to read it from the environment or the vault", label, quote(s)))
		}
		return s
	})
	if len(d.trust) > 0 {
		d.e.Notes = append(d.e.Notes, strings.Join(d.trust, ", ")+" ignored: tai asks before each call until you grant the tool or the server")
	}
	if len(d.ignored) > 0 {
		shown := make([]string, len(d.ignored))
		for i, k := range d.ignored {
			shown[i] = quote(k)
		}
		if len(shown) > 8 {
			shown = append(shown[:8], fmt.Sprintf("and %d more", len(shown)-8))
		}
		d.e.Notes = append(d.e.Notes, "ignored, not used by tai: "+strings.Join(shown, ", "))
	}
}

// checkURL accepts an absolute http or https URL with a host.
func checkURL(raw string) error {
	p, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("url %s is not valid (%v): replace any placeholder with the server's address", quote(raw), err)
	}
	if p.Scheme != "http" && p.Scheme != "https" || p.Host == "" {
		return fmt.Errorf("url %s is not an http or https address", quote(raw))
	}
	if h := p.Hostname(); !hostChars.MatchString(h) && !isIP(h) {
		return fmt.Errorf("url %s has no valid host name: replace any placeholder with the server's address", quote(raw))
	}
	return nil
}

// hostChars is what a DNS name in a URL may hold (underscores included,
// which some internal names have).
var hostChars = lazyre.New(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$`)

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
