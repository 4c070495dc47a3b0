package web

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"tai/internal/tools"
	"tai/internal/tools/clip"
)

func (a requestArgs) method() string {
	if a.Method == "" {
		return "GET"
	}
	return a.Method
}

type requestArgs struct {
	Method  string            `json:"method,omitempty" jsonschema:"Default GET." enum:"GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS"`
	URL     string            `json:"url" jsonschema:"The http or https URL." pattern:"^[Hh][Tt][Tt][Pp][Ss]?://"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"Request headers by name." maxProperties:"50"`
	Body    string            `json:"body,omitempty" jsonschema:"Request body, sent as is; set Content-Type in headers." maxLength:"1048576"`
	Secret  *secretRef        `json:"secret,omitempty" jsonschema:"Send a vault secret of the current profile in a request header. Name it; its value is never shown."`
}

func requestConsent(_ tools.Call, a requestArgs) tools.Consent {
	return consent(RequestName, a.method(), a.URL, a.Headers, a.Body, a.Secret)
}

func runRequest(ctx context.Context, call tools.Call, a requestArgs) (tools.Result, error) {
	r := request{method: a.method(), url: a.URL, header: a.Headers, body: a.Body, secret: a.Secret}
	resp, value, err := exchange(ctx, call.Env, r)
	if err != nil {
		return tools.Errorf("%s", redact(call.Env, a.Secret, value, RequestName+": "+err.Error())), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", resp.proto, resp.status)
	for _, k := range slices.Sorted(maps.Keys(resp.header)) {
		for _, v := range resp.header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, clip.Clean(v))
		}
	}
	b.WriteString("\n")
	ctype := resp.header.Get("Content-Type")
	switch {
	case len(resp.body) == 0:
		b.WriteString("(empty body)")
	case isText(ctype, resp.body):
		b.WriteString(bodyText(toUTF8(ctype, resp.body), resp.truncated))
	default:
		fmt.Fprintf(&b, "(binary body: %s bytes of %s)", clip.Count(int64(len(resp.body))), orUnknown(mediaType(ctype)))
	}
	if resp.elsewhere != nil {
		b.WriteString("\n\n" + elsewhereNote(RequestName, resp.url, resp.elsewhere))
	}
	return tools.Text(redact(call.Env, a.Secret, value, b.String())), nil
}
