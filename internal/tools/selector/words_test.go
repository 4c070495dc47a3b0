package selector

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"get_file_contents", []string{"get", "fil", "content"}},
		{"listDirectory", []string{"list", "directory", "listdirectory"}},
		{"HTTPRequest", []string{"http", "request", "httprequest"}},
		{"API-post-search", []string{"api", "post", "search"}},
		{"Execute JavaScript in the browser", []string{"execut", "java", "script", "javascript", "browser"}},
		{"please show me the issues", []string{"show", "issu"}},
		{"creating created creation creates", []string{"creat", "creat", "creat", "creat"}},
		{"modified modifies running committed added", []string{"modify", "modify", "run", "commit", "add"}},
		{"notion notes version", []string{"notion", "not", "version"}},
		{"a b I é", nil},
	} {
		if diff := cmp.Diff(tc.want, Words(tc.in)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
