package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"tai/internal/tools"
	"tai/internal/tools/clip"
)

func fetchSafe(a fetchArgs) bool { return a.Secret == nil }

func fetchConsent(_ tools.Call, a fetchArgs) tools.Consent {
	return consent(FetchName, http.MethodGet, a.URL, nil, "", a.Secret)
}

type fetchArgs struct {
	URL    string     `json:"url" jsonschema:"The http or https URL to fetch." pattern:"^[Hh][Tt][Tt][Pp][Ss]?://"`
	Raw    bool       `json:"raw,omitempty" jsonschema:"Return HTML as received instead of converting it to text."`
	Secret *secretRef `json:"secret,omitempty" jsonschema:"Send a vault secret of the current profile in a request header. Name it; its value is never shown."`
}

func runFetch(ctx context.Context, call tools.Call, a fetchArgs) (tools.Result, error) {
	header := map[string]string{"Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5"}
	resp, value, err := exchange(ctx, call.Env, request{method: http.MethodGet, url: a.URL, header: header, secret: a.Secret})
	if err != nil {
		return tools.Errorf("%s", redact(call.Env, a.Secret, value, FetchName+": "+err.Error())), nil
	}
	res := fetchResult(resp, a.Raw)
	res.Text = redact(call.Env, a.Secret, value, res.Text)
	return res, nil
}

// fetchResult renders a response: the final URL, the title of a page, and
// its text; a status other than 2xx is a tool error showing the start of
// the body.
func fetchResult(resp *response, raw bool) tools.Result {
	if resp.elsewhere != nil {
		return tools.Text(elsewhereNote(FetchName, resp.url, resp.elsewhere))
	}
	ctype := resp.header.Get("Content-Type")
	if !isText(ctype, resp.body) {
		return tools.Errorf("%s: %s is %s (%s bytes), not text; web_fetch returns text only",
			FetchName, resp.url.Redacted(), orUnknown(mediaType(ctype)), clip.Count(int64(len(resp.body))))
	}
	body := toUTF8(ctype, resp.body)
	var head strings.Builder
	fmt.Fprintf(&head, "URL: %s\n", resp.url.Redacted())
	if isHTML(ctype, body) && !raw {
		title, text := htmlText(string(body), resp.url)
		if title != "" {
			fmt.Fprintf(&head, "Title: %s\n", clip.Clean(title))
		}
		body = []byte(text)
	}
	if resp.code/100 != 2 {
		short := clip.New(2<<10, 0)
		short.Write(body)
		return tools.Errorf("%s: GET %s: %s\n\n%s", FetchName, resp.url.Redacted(), resp.status, short.String())
	}
	return tools.Text(head.String() + "\n" + bodyText(body, resp.truncated))
}

func orUnknown(mt string) string {
	if mt == "" {
		return "of unknown type"
	}
	return mt
}
