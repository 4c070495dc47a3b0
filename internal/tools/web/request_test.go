package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tai/internal/tools"
)

func api(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/items":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Location", "/items/7")
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, `{"method": "`+r.Method+`", "type": "`+r.Header.Get("Content-Type")+`", "got": `+string(body)+`}`)
		case "/blob":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte{0, 1, 2, 0xff, 0xfe})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRequest_PostWithHeadersAndBody(t *testing.T) {
	srv := api(t)
	args := `{"method": "POST", "url": "` + srv.URL + `/items", "headers": {"Content-Type": "application/json"}, "body": "{\"name\": \"x\"}"}`
	got := mustRun(t, Request(), &tools.Env{}, args)
	for _, want := range []string{
		"HTTP/1.1 201 Created\n",
		"Content-Type: application/json\n",
		"Location: /items/7\n",
		"\n\n" + `{"method": "POST", "type": "application/json", "got": {"name": "x"}}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
}

func TestRequest_StatusesAndBodies(t *testing.T) {
	srv := api(t)
	res := call(t, Request(), &tools.Env{}, `{"url": "`+srv.URL+`/nothing"}`)
	if res.IsError || !strings.HasPrefix(res.Text, "HTTP/1.1 404 Not Found\n") {
		t.Errorf("404 should be a normal result: %+v", res)
	}
	if got := mustRun(t, Request(), &tools.Env{}, `{"url": "`+srv.URL+`/blob"}`); !strings.HasSuffix(got, "\n\n(binary body: 5 bytes of application/octet-stream)") {
		t.Errorf("binary: %q", got)
	}
	if got := mustRun(t, Request(), &tools.Env{}, `{"method": "HEAD", "url": "`+srv.URL+`/items"}`); !strings.HasSuffix(got, "\n\n(empty body)") {
		t.Errorf("HEAD: %q", got)
	}
}

func TestRequest_BadInputs(t *testing.T) {
	srv := api(t)
	for args, want := range map[string]string{
		`{"method": "TRACE", "url": "` + srv.URL + `"}`:                     `argument "method"`,
		`{"url": "` + srv.URL + `", "headers": {"Bad Name": "x"}}`:          `header "Bad Name"`,
		`{"url": "` + srv.URL + `", "headers": {"X-A": "one\r\nX-B: two"}}`: `header "X-A"`,
		`{"url": "` + srv.URL + `", "headers": {"X-A": 5}}`:                 `argument "headers`,
		`{"url": "mailto:me@example.com"}`:                                  `argument "url"`,
		`{"method": "GET"}`:                                                 `"url"`,
	} {
		wantError(t, call(t, Request(), &tools.Env{}, args), want)
	}
}

func TestRequest_NeverSafe(t *testing.T) {
	args := json.RawMessage(`{"method": "DELETE", "url": "https://api.example.com/repos/x", "headers": {"Accept": "application/json"}` + secretArg + `}`)
	if Request().IsSafe(tools.Call{Args: args}) || Request().IsSafe(tools.Call{Args: json.RawMessage(`{"url": "https://example.com"}`)}) {
		t.Error("http_request must never be safe")
	}
	c := Request().ConsentFor(tools.Call{Args: args})
	if c.Title != "http_request: DELETE https://api.example.com/repos/x with secret GITHUB_TOKEN" {
		t.Errorf("title %q", c.Title)
	}
	if want := "DELETE https://api.example.com/repos/x\nAccept: application/json\nAuthorization: Bearer [secret GITHUB_TOKEN from the vault, not shown]\n"; c.Detail != want {
		t.Errorf("detail %q, want %q", c.Detail, want)
	}
}
