package config

import (
	"fmt"
	"net/url"
	"strings"
)

// fromURL reads a pasted server address that is not on GitHub: https, or
// plain http to this machine only.
func fromURL(text string) (Entry, error) {
	if err := checkURL(text); err != nil {
		return Entry{}, err
	}
	p, _ := url.Parse(text)
	if p.Scheme == "http" && !isLoopback(p.Hostname()) {
		return Entry{}, fmt.Errorf("plain http is accepted only for localhost: use https://%s", printable(p.Host+p.EscapedPath()))
	}
	e := Entry{Transport: HTTP, URL: text, Source: SourceURL}
	nameDerived(&e)
	return e, nil
}

// hostName names a server after its host: the first label that is not
// www, mcp or api (mcp.context7.com gives context7), or localhost and the
// port for a local address.
func hostName(p *url.URL) string {
	host := p.Hostname()
	switch {
	case isLoopback(host) && p.Port() != "":
		return "localhost-" + p.Port()
	case isLoopback(host):
		return "localhost"
	case isIP(host):
		return host
	}
	labels := strings.Split(strings.ToLower(host), ".")
	for len(labels) > 2 && (labels[0] == "www" || labels[0] == "mcp" || labels[0] == "api") {
		labels = labels[1:]
	}
	return labels[0]
}
