// Command follow stands in for a person's browser in the conformance
// suite's auth scenarios (BROWSER=follow): it loads the authorization URL
// it is given and follows the redirects, which end at tai's loopback
// callback. Like a browser, it does not judge the page it lands on; only
// failing to reach the servers is an error.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: follow URL")
		os.Exit(2)
	}
	resp, err := http.Get(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "follow:", err)
		os.Exit(1)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	fmt.Fprintf(os.Stderr, "follow: landed on %s (%s)\n", resp.Request.URL.Redacted(), resp.Status)
}
