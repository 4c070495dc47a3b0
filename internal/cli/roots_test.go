package cli

import (
	"testing"

	"tai/internal/mcp/wire"
)

// The workspace reaches servers as file:// URIs escaped segment by
// segment, Windows paths included, each named by its last element.
func TestRootOf_EscapedFileURIs(t *testing.T) {
	for _, c := range []struct {
		dir     string
		windows bool
		want    wire.Root
	}{
		{"/home/ann/my project", false, wire.Root{URI: "file:///home/ann/my%20project", Name: "my project"}},
		{"/srv/a#b?c%d", false, wire.Root{URI: "file:///srv/a%23b%3Fc%25d", Name: "a#b?c%d"}},
		{"/tmp/çà", false, wire.Root{URI: "file:///tmp/%C3%A7%C3%A0", Name: "çà"}},
		{"/", false, wire.Root{URI: "file:///", Name: "/"}},
		{`C:\Users\Ann\My Project`, true, wire.Root{URI: "file:///C:/Users/Ann/My%20Project", Name: "My Project"}},
		{`C:\`, true, wire.Root{URI: "file:///C:/", Name: "C:"}},
		{`\\fileserver\share\docs`, true, wire.Root{URI: "file://fileserver/share/docs", Name: "docs"}},
	} {
		if got := rootOf(c.dir, c.windows); got != c.want {
			t.Errorf("rootOf(%q) = %+v, want %+v", c.dir, got, c.want)
		}
	}
}
