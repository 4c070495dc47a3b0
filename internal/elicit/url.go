package elicit

import (
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"tai/internal/mcp/wire"
)

// CheckURL reads a URL elicitation's URL: https, or http to this machine
// (a local development server); anything else, a URL without a host, or
// one carrying a user name or password before its host, is refused. It
// returns the host, to emphasise, and warnings about a host that may not
// be what it looks like: punycode labels, letters of several scripts.
func CheckURL(raw string) (host string, warnings []string, err error) {
	u, perr := url.Parse(raw)
	switch {
	case raw == "":
		return "", nil, refused("a URL elicitation without a url")
	case perr != nil:
		return "", nil, refused("the URL does not parse: %s", wire.Printable(perr.Error(), 120))
	case u.Scheme != "https" && u.Scheme != "http":
		return "", nil, refused("the URL's scheme %q is not https", wire.Printable(u.Scheme, 20))
	case u.User != nil:
		return "", nil, refused("the URL carries a user name before its host (%s), a classic disguise; tai does not open it", wire.Printable(u.User.Username(), 40))
	case u.Host == "" || u.Hostname() == "":
		return "", nil, refused("the URL has no host")
	case u.Scheme == "http" && !loopback(u.Hostname()):
		return "", nil, refused("the URL is plain http to %s; tai opens https, or http only to this machine", wire.Printable(u.Hostname(), 80))
	}
	host = u.Hostname()
	return host, hostWarnings(host), nil
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostWarnings says what may make a host look like another: punycode
// (xn--) labels, which a browser may show as other letters, and letters
// from more than one script (a Cyrillic а among Latin ones).
func hostWarnings(host string) []string {
	var out []string
	for _, label := range strings.Split(strings.ToLower(host), ".") {
		if strings.HasPrefix(label, "xn--") {
			out = append(out, "the host has punycode (xn--) labels: the browser may show letters other than these; check it is the site you expect")
			break
		}
	}
	scripts := map[string]bool{}
	nonASCII := false
	for _, r := range host {
		if r > unicode.MaxASCII {
			nonASCII = true
		}
		if !unicode.IsLetter(r) {
			continue
		}
		for name, table := range scriptTables {
			if unicode.Is(table, r) {
				scripts[name] = true
			}
		}
	}
	switch {
	case len(scripts) > 1:
		out = append(out, "the host mixes letters of several scripts ("+strings.Join(slices.Sorted(maps.Keys(scripts)), ", ")+"), which can imitate another name")
	case nonASCII:
		out = append(out, "the host has letters beyond ASCII, which can imitate another name")
	}
	return out
}

// scriptTables are the scripts whose letters are confused with Latin ones
// most often, and the others a host is likely to use.
var scriptTables = map[string]*unicode.RangeTable{
	"Latin": unicode.Latin, "Cyrillic": unicode.Cyrillic, "Greek": unicode.Greek, "Armenian": unicode.Armenian,
	"Han": unicode.Han, "Hiragana": unicode.Hiragana, "Katakana": unicode.Katakana, "Hangul": unicode.Hangul,
	"Arabic": unicode.Arabic, "Hebrew": unicode.Hebrew, "Cherokee": unicode.Cherokee,
}
