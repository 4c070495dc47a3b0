package oauth

import "strings"

// Challenge is the Bearer challenge of a WWW-Authenticate header (RFC 6750
// §3, RFC 9728 §5.1). The zero Challenge means the server sent none.
type Challenge struct {
	ResourceMetadata string // where the protected-resource metadata is
	Scope            string // space-separated scopes the request needs
	Error            string // invalid_token, insufficient_scope, …
	ErrorDescription string
}

// InsufficientScope reports a 403-style step-up challenge.
func (c Challenge) InsufficientScope() bool { return c.Error == "insufficient_scope" }

// ParseChallenge reads the first Bearer challenge of a WWW-Authenticate
// header, which may hold several challenges of several schemes. Malformed
// input yields what could be read; ok is false without a Bearer challenge.
func ParseChallenge(header string) (c Challenge, ok bool) {
	p := &headerParser{s: header}
	for !p.done() {
		p.skip(" \t,")
		scheme := p.token()
		if scheme == "" {
			p.i++ // not a token character: skip it
			continue
		}
		params := p.params()
		if ok || !strings.EqualFold(scheme, "Bearer") {
			continue
		}
		ok = true
		c = Challenge{ResourceMetadata: params["resource_metadata"], Scope: params["scope"],
			Error: params["error"], ErrorDescription: params["error_description"]}
	}
	return c, ok
}

type headerParser struct {
	s string
	i int
}

func (p *headerParser) done() bool { return p.i >= len(p.s) }

func (p *headerParser) skip(chars string) {
	for !p.done() && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *headerParser) eat(c byte) bool {
	if !p.done() && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func (p *headerParser) token() string {
	start := p.i
	for !p.done() && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// params reads name=value pairs up to the next challenge's scheme.
func (p *headerParser) params() map[string]string {
	m := map[string]string{}
	for {
		p.skip(" \t")
		save := p.i
		name := p.token()
		p.skip(" \t")
		if name == "" || !p.eat('=') {
			p.i = save // the next scheme, or the end
			return m
		}
		p.skip(" \t")
		m[strings.ToLower(name)] = p.value()
		p.skip(" \t")
		if !p.eat(',') {
			return m
		}
	}
}

// value reads a quoted string, or anything up to a comma or a space (for
// servers that leave URLs unquoted).
func (p *headerParser) value() string {
	if !p.eat('"') {
		start := p.i
		for !p.done() && p.s[p.i] != ',' && p.s[p.i] != ' ' && p.s[p.i] != '\t' {
			p.i++
		}
		return p.s[start:p.i]
	}
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"':
			return b.String()
		case c == '\\' && !p.done():
			b.WriteByte(p.s[p.i])
			p.i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
