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

func TestSplitDenied(t *testing.T) {
	for _, tc := range []struct{ in, said, denied string }{
		{"what's on your checklist? not the shortcut board", "what's on your checklist?", "the shortcut board"},
		{"save it in notebooklm, not in your memory, for later", "save it in notebooklm, for later", "in your memory,"},
		{"undo that on the board, NOT the files.", "undo that on the board,", "the files."},
		{"why is the build not working", "why is the build not working", ""},
		{"the key is not set and not used", "the key is not set and not used", ""},
		{"use the api instead of the cli", "use the api instead of the cli", ""},
		{"ends with not", "ends with not", ""},
	} {
		said, denied := splitDenied(tc.in)
		if said != tc.said || denied != tc.denied {
			t.Errorf("splitDenied(%q) = %q, %q; want %q, %q", tc.in, said, denied, tc.said, tc.denied)
		}
	}
}

func TestSplitConstants(t *testing.T) {
	for _, tc := range []struct{ in, said, constants string }{
		{"put STRIPE_SECRET_KEY= and LOG_LEVEL=debug in app.env", "put and in app.env ", "STRIPE_SECRET_KEY= LOG_LEVEL=debug "},
		{"why is MAX_RETRIES, or page_size=50, ignored?", "why is or ignored? ", "MAX_RETRIES, page_size=50, "},
		{"rotate the API key, _PRIVATE and A_ stay, 2_FA too", "rotate the API key, _PRIVATE and A_ stay, 2_FA too ", ""},
		{"x=, =y and snake_case or HTTP", "=y and snake_case or HTTP ", "x=, "},
	} {
		said, constants := splitConstants(tc.in)
		if said != tc.said || constants != tc.constants {
			t.Errorf("splitConstants(%q) = %q, %q; want %q, %q", tc.in, said, constants, tc.said, tc.constants)
		}
	}
}

// The name of a variable in a request is data: SENTRY_DSN in a line to
// write into a file names no server, though the server's name is in it.
func TestRank_ConstantsNameNoServer(t *testing.T) {
	ix := NewIndex([]*tools.Tool{
		{Name: "write_file", Description: "Create or overwrite a file with the given content"},
		{Name: "mcp_stripe_create_webhook", Description: "Create a Stripe webhook endpoint", Server: "stripe", Remote: "create_webhook"},
		{Name: "mcp_stripe_get_balance", Description: "Get the Stripe account balance", Server: "stripe", Remote: "get_balance"},
		{Name: "list_files", Description: "List files"},
	})
	for in, want := range map[string]string{
		"make a file .env with a STRIPE_WEBHOOK_SECRET= line": "write_file",
		"make a stripe webhook for our shop":                  "mcp_stripe_create_webhook",
	} {
		if hits := ix.Rank(Query{Input: in}); len(hits) == 0 || hits[0].Tool.Name != want {
			first := "nothing"
			if len(hits) > 0 {
				first = hits[0].Tool.Name
			}
			t.Errorf("%q ranked %s first, want %s", in, first, want)
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
