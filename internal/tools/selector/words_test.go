package selector

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/tools"
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
		{"推荐几个菜", []string{"推", "荐", "推荐", "几", "荐几", "个", "几个", "菜", "个菜"}},
		{"查询 city 天気です", []string{"查", "询", "查询", "city", "天", "気", "天気", "で", "気で", "す", "です"}},
		{"서울 날씨 Seoul", []string{"서울", "날씨", "seoul"}},
	} {
		if diff := cmp.Diff(tc.want, Words(tc.in)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestSplitQuoted(t *testing.T) {
	for _, tc := range []struct{ in, said, quoted string }{
		{`commit with the message 'fix typo in readme'`, `commit with the message  `, `fix typo in readme `},
		{`what's in the team's cycle`, `what's in the team's cycle`, ``},
		{`send "hello there" and “good night” to ‘bob’`, `send   and   to  `, `hello there good night bob `},
		{"run `make test` now", "run   now", "make test "},
		{`an 'unclosed quote`, `an 'unclosed quote`, ``},
		{`empty '' quotes`, `empty '' quotes`, ``},
	} {
		said, quoted := splitQuoted(tc.in)
		if said != tc.said || quoted != tc.quoted {
			t.Errorf("splitQuoted(%q) = %q, %q; want %q, %q", tc.in, said, quoted, tc.said, tc.quoted)
		}
	}
}

// A number in a request is data: it must not outweigh the words that say
// what to do, even when a tool happens to mention the same number.
func TestRank_NumbersAreData(t *testing.T) {
	ix := NewIndex([]*tools.Tool{
		{Name: "legacy_api_2010", Description: "Call the 2010 API version"},
		{Name: "close_ticket", Description: "Close a ticket"},
		{Name: "list_files", Description: "List files"},
	})
	hits := ix.Rank(Query{Input: "close ticket 2010"})
	if len(hits) == 0 || hits[0].Tool.Name != "close_ticket" {
		t.Fatalf("ranked %v first", hits)
	}
	if len(hits) < 2 || hits[1].Score > hits[0].Score*quotedWeight*1.5 {
		t.Errorf("the number's match scores %.2f against %.2f", hits[1].Score, hits[0].Score)
	}
}
