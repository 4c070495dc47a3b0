package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdFakeMoved starts an MCP endpoint that answers every request with a
// redirect (307 unless a status is given) to a server on another port,
// which appends the headers of each request it gets to other.log:
//
//	fakemoved [status]
//
// It sets MCPURL to the endpoint and OTHERURL to the target.
func cmdFakeMoved(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: fakemoved [status]")
	}
	status := http.StatusTemporaryRedirect
	if len(args) == 1 {
		_, err := fmt.Sscanf(args[0], "%d", &status)
		ts.Check(err)
	}
	var mu sync.Mutex
	logPath := ts.MkAbs("other.log")
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err == nil {
			var keys []string
			for k := range r.Header {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(f, "%s: %s\n", k, r.Header.Get(k))
			}
			f.Close()
		}
		http.Error(w, "not here", http.StatusTeapot)
	}))
	ts.Defer(other.Close)
	entry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", status)
	}))
	ts.Defer(entry.Close)
	ts.Setenv("MCPURL", entry.URL+"/mcp")
	ts.Setenv("OTHERURL", other.URL+"/mcp")
}
