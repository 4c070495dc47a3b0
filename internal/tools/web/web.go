// Package web holds web_fetch and http_request: HTTP(S) only, at most five
// redirects, capped bodies, and vault secrets sent only when a call names
// one, never shown in a result.
package web

import (
	"embed"
	"fmt"
	"maps"
	"slices"
	"strings"

	tai "tai"
	"tai/internal/lazyre"
	"tai/internal/tools"
)

// Group is the catalogue group of every tool in this package.
const Group = "web"

// Tools returns the group's tools.
func Tools() []*tools.Tool {
	return []*tools.Tool{Fetch(), Request()}
}

// Tool names.
const (
	FetchName   = "web_fetch"
	RequestName = "http_request"
)

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// group declares this group's tools.
var group = tools.Group{Name: Group, Docs: docs}

// Fetch returns the web_fetch tool. A fetch only reads, so it is safe,
// unless it sends a secret.
func Fetch() *tools.Tool {
	return tools.Define(group.Tool(FetchName, nil), runFetch, urlReach(func(a fetchArgs) string { return a.URL }), tools.SafeIf(fetchSafe), tools.ConsentBy(fetchConsent))
}

// Request returns the http_request tool. A request can change anything a
// server offers, so it is never safe.
func Request() *tools.Tool {
	return tools.Define(group.Tool(RequestName, nil), runRequest, urlReach(func(a requestArgs) string { return a.URL }), tools.ConsentBy(requestConsent))
}

var userAgent = "tai/" + tai.Version

// secretRef names a vault secret to send in a header.
type secretRef struct {
	Name   string `json:"name" jsonschema:"The secret's name in the vault." pattern:"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"`
	Header string `json:"header" jsonschema:"Header that carries it, such as Authorization." pattern:"^[A-Za-z0-9!#$%&'*+.^_|~-]+$"`
	Prefix string `json:"prefix,omitempty" jsonschema:"Text sent before the value, such as \"Bearer \"." maxLength:"64"`
}

// headerName is an HTTP header field name (an RFC 9110 token).
var headerName = lazyre.New("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")

// consent describes a call for the approval screen: the request line, the
// headers and body the model wrote, and the secret by name only.
func consent(tool, method, url string, header map[string]string, body string, s *secretRef) tools.Consent {
	var d strings.Builder
	fmt.Fprintf(&d, "%s %s\n", method, url)
	for _, k := range slices.Sorted(maps.Keys(header)) {
		fmt.Fprintf(&d, "%s: %s\n", k, header[k])
	}
	if s != nil {
		fmt.Fprintf(&d, "%s: %s[secret %s from the vault, not shown]\n", s.Header, s.Prefix, s.Name)
	}
	if body != "" {
		if len(body) > 2000 {
			body = body[:2000] + "… (" + fmt.Sprint(len(body)) + " bytes in all)"
		}
		d.WriteString("\n" + body + "\n")
	}
	title := tool + ": " + method + " " + url
	if s != nil {
		title += " with secret " + s.Name
	}
	c := tools.Consent{Title: title, Detail: d.String()}
	// "Always" is per host; a call sending a vault secret asks every time.
	if h := tools.HostOf(url); h != "" && s == nil {
		c.Grants = []tools.Grant{{Kind: tools.GrantHost, Subject: h}}
	}
	return c
}

// urlReach is the Reach rule of both tools: the URL they request.
func urlReach[In any](url func(In) string) tools.Rule[In] {
	return tools.ReachBy(func(_ tools.Call, a In) tools.Reach { return tools.Reach{URLs: []string{url(a)}} })
}
