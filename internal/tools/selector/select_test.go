package selector_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/tools"
	"tai/internal/tools/selector"
	"tai/internal/tools/tooltest"
)

func tool(name, desc string) *tools.Tool {
	return &tools.Tool{Name: name, Description: desc, Schema: json.RawMessage(`{"type":"object","properties":{}}`)}
}

func names(ts []*tools.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// smallCatalogue has a core tool, a handful of matches and filler.
func smallCatalogue() []*tools.Tool {
	ts := []*tools.Tool{
		tool("read_file", "Read a file"),
		tool("git_log", "Show the commit history"),
		tool("git_show", "Show one commit and what it changed"),
		{Name: "mcp_gh_create_issue", Description: "Create an issue in a repository", Server: "gh", Remote: "create_issue"},
		{Name: "mcp_big_hidden_issue", Description: "Create an issue, the hidden way", Server: "big", Remote: "hidden_issue", Unoffered: true},
	}
	for i := range 40 {
		ts = append(ts, tool(fmt.Sprintf("filler_%02d", i), fmt.Sprintf("Does unrelated thing number %d with widgets", i)))
	}
	return ts
}

func TestSelect_CoreThenMatchesWithinBudget(t *testing.T) {
	selector.Lexical(t)
	ix := selector.NewIndex(smallCatalogue())
	s := selector.Selector{Core: []string{"read_file", "no_such_tool"}, Budget: selector.DefaultBudget}
	got := s.Select(ix, selector.Request{Query: selector.Query{Input: "what changed in the last commit?"}})
	if diff := cmp.Diff([]string{"read_file", "git_show", "git_log"}, names(got.Tools)); diff != "" {
		t.Errorf("offered (-want +got):\n%s", diff)
	}
	tight := selector.Selector{Core: []string{"read_file"}, Budget: selector.Budget{MaxTools: 2, MaxTokens: 1000}}
	if got := tight.Select(ix, selector.Request{Query: selector.Query{Input: "widgets"}}); len(got.Tools) != 2 {
		t.Errorf("MaxTools 2 offered %v", names(got.Tools))
	}
	small := selector.Selector{Core: []string{}, Budget: selector.Budget{MaxTools: 24, MaxTokens: 60}}
	got = small.Select(ix, selector.Request{Query: selector.Query{Input: "widgets"}})
	if got.Tokens > 60 || got.Tokens != selector.Tokens(got.Bytes) || len(got.Tools) == 0 {
		t.Errorf("60-token budget: %d tools, %d tokens", len(got.Tools), got.Tokens)
	}
}

// A catalogue that fits in 5% of the model's window is offered whole at
// every step, whatever the request: the core set, then every other tool
// in catalogue order, never one marked Unoffered. A window too small for
// that gets the ranked selection.
func TestSelect_SmallCatalogueOfferedWhole(t *testing.T) {
	cat := smallCatalogue()
	ix := selector.NewIndex(cat)
	want := []string{"git_show"}
	for _, tl := range cat {
		if tl.Name != "git_show" && !tl.Unoffered {
			want = append(want, tl.Name)
		}
	}
	s := selector.Selector{Core: []string{"git_show"}}
	if !selector.OffersWhole(ix.CatalogueTokens(), 0) {
		t.Fatalf("the test needs the catalogue (%d tokens) within 5%% of the default window", ix.CatalogueTokens())
	}
	for _, in := range []string{"what changed in the last commit?", "zzz", ""} {
		got := s.Select(ix, selector.Request{Query: selector.Query{Input: in}, Loaded: []string{"filler_30"}})
		if diff := cmp.Diff(want, names(got.Tools)); diff != "" {
			t.Errorf("%q offered (-want +got):\n%s", in, diff)
		}
		if got.Tokens > got.CatalogueTokens || got.Tokens < got.CatalogueTokens*9/10 {
			t.Errorf("%q: %d tokens of a %d-token catalogue", in, got.Tokens, got.CatalogueTokens)
		}
	}
	window := 19 * ix.CatalogueTokens()
	if selector.OffersWhole(ix.CatalogueTokens(), window) {
		t.Fatalf("a %d-token catalogue fits in 5%% of %d tokens", ix.CatalogueTokens(), window)
	}
	s.ContextTokens = window
	if got := s.Select(ix, selector.Request{Query: selector.Query{Input: "what changed in the last commit?"}}); len(got.Tools) >= len(want) || !slices.Contains(names(got.Tools), "git_log") {
		t.Errorf("a window of %d tokens offered %v", window, names(got.Tools))
	}
}

func TestSelect_DeterministicAcrossIndexes(t *testing.T) {
	req := selector.Request{Query: selector.Query{Input: "do the widget thing number 7 with the commit history", Traffic: "git_log {} abc123 widgets"}}
	s := selector.Selector{Budget: selector.DefaultBudget}
	first := names(s.Select(selector.NewIndex(smallCatalogue()), req).Tools)
	for range 20 {
		if got := names(s.Select(selector.NewIndex(smallCatalogue()), req).Tools); !slices.Equal(got, first) {
			t.Fatalf("selection changed between runs:\n%v\n%v", first, got)
		}
	}
}

func TestSelect_UnofferedIsRankedButNeverOffered(t *testing.T) {
	ix := selector.NewIndex(smallCatalogue())
	req := selector.Request{Query: selector.Query{Input: "create an issue the hidden way"}, Loaded: []string{"mcp_big_hidden_issue"}}
	for _, s := range []selector.Selector{{}, {Budget: selector.DefaultBudget}} {
		if got := names(s.Select(ix, req).Tools); slices.Contains(got, "mcp_big_hidden_issue") || !slices.Contains(got, "mcp_gh_create_issue") {
			t.Errorf("offered %v", got)
		}
	}
	hits := ix.Rank(req.Query)
	if len(hits) == 0 || hits[0].Tool.Name != "mcp_big_hidden_issue" {
		t.Errorf("rank: %v; the unoffered tool should still be found first", hits)
	}
}

func TestSelect_LoadedAndCalledToolsAreOffered(t *testing.T) {
	ix := selector.NewIndex(smallCatalogue())
	req := selector.Request{
		Query:  selector.Query{Traffic: "filler_03 {} done\nsome result line\n"},
		Loaded: []string{"filler_30", "no_such_tool"},
	}
	got := names(selector.Selector{Core: []string{"read_file"}, Budget: selector.DefaultBudget}.Select(ix, req).Tools)
	if diff := cmp.Diff([]string{"read_file", "filler_30", "filler_03"}, got[:3]); diff != "" {
		t.Errorf("offered (-want +got):\n%s", diff)
	}
}

func TestCatalogue_RebuildsOnlyWhenToolsChange(t *testing.T) {
	reg := tools.NewRegistry(smallCatalogue()...)
	c := &selector.Catalogue{Registry: reg}
	first := c.Index()
	if c.Index() != first {
		t.Fatal("index rebuilt although nothing changed")
	}
	reg.Register(tool("new_tool", "brand new"))
	if second := c.Index(); second == first || second.Len() != first.Len()+1 {
		t.Fatal("index not rebuilt after a tool was added")
	}
	reg.Fallback = tooltest.Source{{Name: "mcp_s_x", Server: "s", Remote: "x"}}
	if _, ok := c.Index().Lookup("mcp_s_x"); !ok {
		t.Fatal("index misses the fallback's tool")
	}
}

func TestCatalogueFor_SharedPerHost(t *testing.T) {
	reg := tools.NewRegistry(smallCatalogue()...)
	env := &tools.Env{State: &tools.State{}, Tools: reg}
	first, second := selector.CatalogueFor(env, reg), selector.CatalogueFor(env, reg)
	if first != second {
		t.Error("two catalogues for one registry in one host")
	}
}

func TestLoad_LastsOneTurn(t *testing.T) {
	env := &tools.Env{State: &tools.State{}}
	selector.Load(env, "a", "b", "a")
	if got := selector.Loaded(env); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("loaded %v", got)
	}
	env.State.NewTurn()
	if got := selector.Loaded(env); len(got) != 0 {
		t.Errorf("still loaded after NewTurn: %v", got)
	}
	if selector.Load(&tools.Env{}, "a") {
		t.Error("Load reported success without host state")
	}
}

// A server the person names comes first: its tools outrank a tool that
// shares a rarer word with the request. A word of a server's name that
// tools of every kind use ("search") does not name the server.
func TestRank_NamedServerFirst(t *testing.T) {
	ts := []*tools.Tool{
		tool("todo_write", "Write the task list of this turn"),
		tool("grep", "Search file contents for a pattern"),
		tool("glob", "Search for files by name pattern"),
		{Name: "mcp_linear_list_issues", Description: "List issues of a team", Server: "linear", Remote: "list_issues"},
		{Name: "mcp_linear_create_issue", Description: "Create an issue", Server: "linear", Remote: "create_issue"},
		{Name: "mcp_brave_search_web", Description: "Search the web", Server: "brave_search", Remote: "web"},
	}
	ix := selector.NewIndex(ts)
	top := ix.Rank(selector.Query{Input: "the task list in linear"})
	if len(top) < 2 || top[0].Tool.Server != "linear" {
		t.Fatalf("naming linear ranked %v first", names(hitTools(top)))
	}
	if hits := ix.Rank(selector.Query{Input: "search for a pattern"}); hits[0].Tool.Server == "brave_search" {
		t.Errorf("\"search\" named the brave_search server: %v", names(hitTools(hits)))
	}
	if hits := ix.Rank(selector.Query{Input: "the task list", Traffic: "linear"}); hits[0].Tool.Server == "linear" {
		t.Errorf("a server named only in tool traffic was put first: %v", names(hitTools(hits)))
	}
}

// A server's name shortened as its own tools write it ("argo" for argocd)
// names the server; a beginning that tools of every kind use ("data" of
// datadog) does not.
func TestRank_ShortServerNameNamesIt(t *testing.T) {
	ts := []*tools.Tool{
		tool("todo_write", "Write the task list of this turn"),
		{Name: "mcp_argocd_list_applications", Description: "List the applications Argo CD manages", Server: "argocd", Remote: "list_applications"},
		{Name: "mcp_argocd_sync_application", Description: "Sync an application with its Argo CD source", Server: "argocd", Remote: "sync_application"},
		{Name: "mcp_datadog_list_monitors", Description: "List monitors", Server: "datadog", Remote: "list_monitors"},
		{Name: "mcp_db_query", Description: "Run a query over data", Server: "db", Remote: "query"},
		{Name: "mcp_sheets_list", Description: "List data in a sheet", Server: "sheets", Remote: "list"},
	}
	ix := selector.NewIndex(ts)
	if top := ix.Rank(selector.Query{Input: "the task list in argo"}); len(top) < 2 || top[0].Tool.Server != "argocd" {
		t.Errorf("\"argo\" ranked %v first", names(hitTools(top)))
	}
	if top := ix.Rank(selector.Query{Input: "list the data"}); len(top) == 0 || top[0].Tool.Server == "datadog" {
		t.Errorf("\"data\" named datadog: %v", names(hitTools(top)))
	}
}

func hitTools(hs []selector.Hit) []*tools.Tool {
	var out []*tools.Tool
	for _, h := range hs {
		out = append(out, h.Tool)
	}
	return out
}

// Words inside a file name, path or pattern are what the request acts on,
// not what it asks done: "*.test.ts" does not make a testing tool the best
// match for finding files.
func TestRank_PathWordsArePayload(t *testing.T) {
	ix := selector.NewIndex([]*tools.Tool{
		tool("run_tests", "Run the tests of a TypeScript project: test files, test cases, test reports"),
		tool("find_files", "Find files by pattern"),
	})
	for _, q := range []string{"find all files named *.test.ts", "find the files like src/test/ts/app.test.ts"} {
		if hits := ix.Rank(selector.Query{Input: q}); len(hits) == 0 || hits[0].Tool.Name != "find_files" {
			t.Errorf("%q ranked %v first", q, names(hitTools(hits)))
		}
	}
	if hits := ix.Rank(selector.Query{Input: "run the test suite"}); len(hits) == 0 || hits[0].Tool.Name != "run_tests" {
		t.Errorf("plain words lost their weight: %v", names(hitTools(hits)))
	}
}

// A word a server runs together ("browserbase", "createmessage") is also
// found by its parts when the catalogue uses them on their own; a word
// whose parts the catalogue does not use stays whole.
func TestRank_CompoundWordsMatchTheirParts(t *testing.T) {
	selector.Lexical(t)
	ts := []*tools.Tool{
		{Name: "mcp_bb_close", Description: "Close the current Browserbase session", Server: "bb", Remote: "close"},
		tool("mail_send", "Send a mail"),
		tool("post_send", "Send a post"),
		{Name: "mcp_tw_sendmessage", Description: "Twilio API", Server: "tw", Remote: "sendmessage"},
		tool("browser_open", "Open a page in the browser"),
		tool("browser_back", "Go back in the browser"),
		tool("message_read", "Read a message"),
		tool("message_list", "List each message of a chat"),
		tool("kb_search", "Search the knowledge base"),
		tool("git_rebase", "Rebase onto a base branch"),
		{Name: "mcp_fc_scrape", Description: "Firecrawl scraper", Server: "fc", Remote: "scrape"},
		tool("crawl_site", "Crawl a site"),
		tool("crawl_links", "Crawl the links of a page"),
	}
	ix := selector.NewIndex(ts)
	if hits := ix.Rank(selector.Query{Input: "close the browser session"}); len(hits) == 0 || hits[0].Tool.Name != "mcp_bb_close" {
		t.Errorf("ranked %v first, want mcp_bb_close", names(hitTools(hits)))
	}
	for _, q := range []string{"send", "message"} {
		if !slices.Contains(names(hitTools(ix.Rank(selector.Query{Input: q}))), "mcp_tw_sendmessage") {
			t.Errorf("%q did not match sendmessage", q)
		}
	}
	for _, h := range ix.Rank(selector.Query{Input: "crawl"}) {
		if h.Tool.Name == "mcp_fc_scrape" {
			t.Errorf("\"crawl\" matched firecrawl, though no tool uses \"fire\"")
		}
	}
}

// The budget rule: everything when the catalogue fits in 5% of the
// context window; otherwise 5% of the catalogue, at least the default,
// at most 10% of the window; one tool per 200 tokens.
func TestBudgetFor(t *testing.T) {
	for _, c := range []struct {
		catalogue, context int
		want               selector.Budget
	}{
		{5_000, 200_000, selector.Budget{MaxTools: math.MaxInt, MaxTokens: 5_000}},
		{10_000, 0, selector.Budget{MaxTools: 30, MaxTokens: 6_000}}, // 128k assumed: over 5%, under the default
		{129_000, 200_000, selector.Budget{MaxTools: 32, MaxTokens: 6_450}},
		{325_000, 200_000, selector.Budget{MaxTools: 81, MaxTokens: 16_250}},
		{325_000, 128_000, selector.Budget{MaxTools: 64, MaxTokens: 12_800}},
		{325_000, 32_768, selector.Budget{MaxTools: 24, MaxTokens: 3_276}}, // the window's 10% wins over the default
	} {
		if got := selector.BudgetFor(c.catalogue, c.context); got != c.want {
			t.Errorf("BudgetFor(%d, %d) = %+v, want %+v", c.catalogue, c.context, got, c.want)
		}
	}
}

// However large the catalogue, a step never offers more than 10% of the
// model's context window, the core set included.
func TestSelect_NeverMoreThanTenthOfContext(t *testing.T) {
	cat := smallCatalogue()
	for i := range 400 {
		cat = append(cat, tool(fmt.Sprintf("widget_%03d", i), strings.Repeat("Widget tool for widgets. ", 20)))
	}
	ix := selector.NewIndex(cat)
	got := selector.Selector{ContextTokens: 8_000}.Select(ix, selector.Request{Query: selector.Query{Input: "widgets"}})
	if got.Tokens > 800 || len(got.Tools) == 0 {
		t.Errorf("8,000-token window: offered %d tools, %d tokens; want some, at most 800", len(got.Tools), got.Tokens)
	}
}

// Words in a row that WordNet knows as one ("sum up", "get rid of") find
// the tools of what they mean, though they share no word with them.
func TestRank_PhrasesMatchTheirMeaning(t *testing.T) {
	selector.Lexical(t)
	ix := selector.NewIndex([]*tools.Tool{
		tool("summarize_text", "Summarize a text"),
		tool("remove_file", "Remove a file"),
		tool("list_users", "List the users"),
	})
	for q, want := range map[string]string{"sum up this": "summarize_text", "get rid of this": "remove_file"} {
		if hits := ix.Rank(selector.Query{Input: q}); len(hits) != 1 || hits[0].Tool.Name != want {
			t.Errorf("%q ranked %v, want %s alone", q, names(hitTools(hits)), want)
		}
	}
}

// The best native matches are offered ahead of the bridged ones, even
// when servers' tools score higher: tai's own tools are few and small.
func TestSelect_BestNativeMatchesFirst(t *testing.T) {
	ts := []*tools.Tool{tool("delete_path", "Delete a file or a folder")}
	for i := range 6 {
		ts = append(ts, &tools.Tool{Name: fmt.Sprintf("mcp_s%d_clean_tmp_folder", i), Description: "Clean the tmp folder of the build server",
			Server: fmt.Sprintf("s%d", i), Remote: "clean_tmp_folder", Schema: json.RawMessage(`{"type":"object","properties":{}}`)})
	}
	ix := selector.NewIndex(ts)
	req := selector.Request{Query: selector.Query{Input: "clean out the tmp folder of the build server"}}
	if hits := ix.Rank(req.Query); hits[0].Tool.Name == "delete_path" {
		t.Fatalf("the test needs the native tool ranked below the others: %v", names(hitTools(hits)))
	}
	got := selector.Selector{Core: []string{}, Budget: selector.Budget{MaxTools: 3, MaxTokens: 10_000}}.Select(ix, req)
	if !slices.Contains(names(got.Tools), "delete_path") {
		t.Errorf("offered %v without the native delete_path", names(got.Tools))
	}
}

// A native tool's phrasings (tools.Tool.Asks) find it for a request in
// words its description does not use, and cost nothing when it is
// offered: the spec's size is its name, description and schema alone.
func TestRank_AsksFindTheTool(t *testing.T) {
	selector.Lexical(t)
	rec := tool("record_get", "Return a stored tool result by its id, in pages")
	before := selector.SpecBytes(rec)
	rec.Asks = "that output got chopped off, show all of it\nthe rest of what was cut short\n"
	ts := []*tools.Tool{
		rec,
		tool("read_file", "Read a file"),
		{Name: "mcp_tv_show_output", Description: "Show the output of a television channel", Server: "tv", Remote: "show_output"},
	}
	for i := range 20 {
		ts = append(ts, tool(fmt.Sprintf("filler_%02d", i), fmt.Sprintf("Does unrelated thing number %d with widgets", i)))
	}
	ix := selector.NewIndex(ts)
	hits := ix.Rank(selector.Query{Input: "it got chopped off halfway"})
	if len(hits) == 0 || hits[0].Tool.Name != "record_get" {
		t.Fatalf("a request in the phrasings' words ranked %v first, want record_get", names(hitTools(hits)))
	}
	if got := selector.SpecBytes(rec); got != before {
		t.Errorf("phrasings changed the offered spec's size: %d bytes, was %d", got, before)
	}
	rec.Asks = ""
	if hits := selector.NewIndex(ts).Rank(selector.Query{Input: "it got chopped off halfway"}); len(hits) > 0 && hits[0].Tool.Name == "record_get" {
		t.Errorf("record_get ranked first without its phrasings: the test shows nothing: %v", names(hitTools(hits)))
	}
}

// A link names the service it is on: youtu.be and github.com links rank
// the youtube and github servers' tools first, though the request's own
// words name neither. A host label that is no server's word, or shorter
// than a short server name, names none, and a file name is no host.
func TestRank_LinkNamesItsServer(t *testing.T) {
	ts := []*tools.Tool{
		tool("web_fetch", "Fetch a web page by its URL and return what it says"),
		tool("read_file", "Read a file's contents"),
		{Name: "mcp_youtube_transcript_get_transcript", Description: "Extract transcript from a YouTube video URL or ID", Server: "youtube_transcript", Remote: "get_transcript"},
		{Name: "mcp_github_get_file_contents", Description: "Get the contents of a file in a repository", Server: "github", Remote: "get_file_contents"},
		{Name: "mcp_apify_run_actor", Description: "Run an actor that fetches a page", Server: "apify", Remote: "run_actor"},
		{Name: "mcp_nextcloud_read_file", Description: "Read a file's contents from the cloud", Server: "nextcloud", Remote: "read_file"},
	}
	ix := selector.NewIndex(ts)
	wantFirst(t, ix, map[string]string{
		"what does he say about caching in youtu.be/k3a9xz1":      "mcp_youtube_transcript_get_transcript",
		"what's in https://github.com/acme/site/blob/main/go.mod": "mcp_github_get_file_contents",
		"what does https://www.youtube.com/watch?v=k3a9xz1 say":   "mcp_youtube_transcript_get_transcript",
	})
	for _, in := range []string{"what does https://api.acme.com/page say", "what does blog.acme.io/page say", "read the file next.js exports"} {
		if hits := ix.Rank(selector.Query{Input: in}); len(hits) > 0 && hits[0].Tool.Server != "" {
			t.Errorf("%q named server %s: %v", in, hits[0].Tool.Server, names(hitTools(hits)))
		}
	}
}

// rankWithFiller indexes ts and ten unrelated tools and ranks q, giving
// each match's score as a share of the best one's.
func rankWithFiller(ts []*tools.Tool, q selector.Query) (*selector.Index, []selector.Hit, map[string]float64) {
	for i := range 10 {
		ts = append(ts, tool(fmt.Sprintf("filler_%02d", i), fmt.Sprintf("Does unrelated thing number %d with widgets", i)))
	}
	ix := selector.NewIndex(ts)
	hits := ix.Rank(q)
	score := map[string]float64{}
	for _, h := range hits {
		score[h.Tool.Name] = h.Score / hits[0].Score
	}
	return ix, hits, score
}

// Past the best two native matches, a native tool needs twice the
// relevance of a bridged one to be offered: of two tools with the same
// text and the same weak match, the bridged one is offered and the
// native one is not.
func TestSelect_NativesPastTheBestTwoNeedMoreRelevance(t *testing.T) {
	ts := []*tools.Tool{
		tool("account_sessions", "List the old sessions of the acme account"),
		tool("account_show", "Show the acme account and its invoices"),
		tool("note_rename", "Rename the old note of the acme team"),
		{Name: "mcp_billing_archive_invoices", Description: "Archive the old invoices of an account", Server: "billing", Remote: "archive_invoices"},
		{Name: "mcp_notes_note_rename", Description: "Rename the old note of the acme team", Server: "notes", Remote: "note_rename"},
	}
	q := selector.Query{Input: "archive the old invoices of the acme account"}
	ix, hits, score := rankWithFiller(ts, q)
	if hits[0].Tool.Name != "mcp_billing_archive_invoices" || score["note_rename"] != score["mcp_notes_note_rename"] ||
		score["note_rename"] < 0.2 || score["note_rename"] >= 0.4 || score["account_show"] <= score["note_rename"] {
		t.Fatalf("the test needs the two renames level, between 20%% and 40%% of the best, below the account tools: %v", score)
	}
	got := names(selector.Selector{Core: []string{}, Budget: selector.Budget{MaxTools: 20, MaxTokens: 10_000}}.Select(ix, selector.Request{Query: q}).Tools)
	for _, want := range []string{"mcp_billing_archive_invoices", "account_sessions", "account_show", "mcp_notes_note_rename"} {
		if !slices.Contains(got, want) {
			t.Errorf("offered %v without %s", got, want)
		}
	}
	if slices.Contains(got, "note_rename") {
		t.Errorf("offered %v with the third native match note_rename, at %.0f%% of the best", got, 100*score["note_rename"])
	}
}

// Matches between leftoverRelevance and minRelevance of the best are
// offered only with what the stronger matches leave of the budget: a
// weak small match is offered when there is room, and a large spec that
// clears only the lower floor never takes a stronger match's place.
func TestSelect_LeftoverBudgetGoesToWeakerMatches(t *testing.T) {
	selector.Lexical(t)
	ts := []*tools.Tool{
		{Name: "mcp_billing_archive_invoices", Description: "Archive the old invoices of a customer account", Server: "billing", Remote: "archive_invoices"},
		{Name: "mcp_crm_account_owner", Description: "Show who owns an account", Server: "crm", Remote: "account_owner"},
		{Name: "mcp_crm_merge_accounts", Description: "Merge two customer records", Server: "crm", Remote: "merge_accounts"},
		{Name: "mcp_files_old_versions", Description: "List old versions of a document", Server: "files", Remote: "old_versions"},
		{Name: "mcp_big_account_report", Description: "Report on an old account. " + strings.Repeat("The report covers many fields and options in detail. ", 90), Server: "big", Remote: "account_report"},
	}
	q := selector.Query{Input: "archive the old invoices of the acme account"}
	ix, hits, score := rankWithFiller(ts, q)
	size := math.Sqrt(float64(selector.Tokens(len(`"`+ts[4].Description+`"`))) / 300)
	if hits[0].Tool.Name != "mcp_billing_archive_invoices" ||
		score["mcp_crm_merge_accounts"] < 0.15 || score["mcp_crm_merge_accounts"] >= 0.2 ||
		score["mcp_crm_account_owner"] < 0.2 || score["mcp_files_old_versions"] < 0.2 ||
		score["mcp_big_account_report"] <= max(score["mcp_crm_account_owner"], score["mcp_files_old_versions"]) ||
		score["mcp_big_account_report"] < 0.15*size || score["mcp_big_account_report"] >= 0.2*size {
		t.Fatalf("the test needs merge_accounts between 15%% and 20%% of the best, the large report ranked above the other two but clearing only the lower floor (size factor %.2f): %v", size, score)
	}
	offer := func(b selector.Budget) []string {
		return names(selector.Selector{Core: []string{}, Budget: b}.Select(ix, selector.Request{Query: q}).Tools)
	}
	want := []string{"mcp_billing_archive_invoices", "mcp_crm_account_owner", "mcp_files_old_versions", "mcp_big_account_report", "mcp_crm_merge_accounts"}
	if got := offer(selector.Budget{MaxTools: 20, MaxTokens: 10_000}); !slices.Equal(got, want) {
		t.Errorf("with room to spare offered %v, want %v", got, want)
	}
	if got := offer(selector.Budget{MaxTools: 3, MaxTokens: 10_000}); !slices.Equal(got, want[:3]) {
		t.Errorf("with room for three offered %v, want the three that clear the floor %v", got, want[:3])
	}
}

// An abbreviation counts as the words it stands for and as itself: "lat
// lon" finds the tool that spells out latitude and longitude, and the one
// whose arguments are named lat and lon.
func TestRank_AbbreviationCountsAsBothForms(t *testing.T) {
	ts := []*tools.Tool{
		{Name: "mcp_geo_geocode", Description: "Find the latitude and longitude of a street address", Server: "geo", Remote: "geocode"},
		{Name: "mcp_sky_conditions", Description: "Current conditions at a point", Server: "sky", Remote: "conditions",
			Schema: json.RawMessage(`{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}}}`)},
	}
	for i := range 10 {
		ts = append(ts, tool(fmt.Sprintf("filler_%02d", i), fmt.Sprintf("Does unrelated thing number %d with widgets", i)))
	}
	got := names(hitTools(selector.NewIndex(ts).Rank(selector.Query{Input: "what's the lat lon here"})))
	if len(got) != 2 || !slices.Contains(got, "mcp_geo_geocode") || !slices.Contains(got, "mcp_sky_conditions") {
		t.Errorf("ranked %v, want both the geocoder and the tool taking lat and lon", got)
	}
}

// A request in Chinese finds the tool its words describe in Chinese,
// though neither has a space between its words: "堵不堵" (is it
// congested) shares 堵 with 拥堵 (congestion), "推荐" (recommend) the
// whole word.
func TestRank_ChineseRequestFindsItsTool(t *testing.T) {
	ts := []*tools.Tool{
		tool("read_file", "Read a file's contents"),
		{Name: "mcp_maps_road_traffic", Description: "根据城市和道路名称查询具体道路的实时拥堵评价和拥堵路段", Server: "maps", Remote: "road_traffic"},
		{Name: "mcp_maps_geocode", Description: "将地址解析为对应的位置坐标", Server: "maps", Remote: "geocode"},
		{Name: "mcp_cook_what_to_eat", Description: "不知道吃什么？根据人数推荐今天吃什么", Server: "cook", Remote: "what_to_eat"},
		{Name: "mcp_web_search", Description: "Search the web", Server: "web", Remote: "search"},
	}
	wantFirst(t, selector.NewIndex(ts), map[string]string{
		"看一下北京三环现在堵不堵": "mcp_maps_road_traffic",
		"今晚三个人，推荐几个菜":  "mcp_cook_what_to_eat",
	})
}

// wantFirst checks that each request of cases ranks its tool first.
func wantFirst(t *testing.T, ix *selector.Index, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if hits := ix.Rank(selector.Query{Input: in}); len(hits) == 0 || hits[0].Tool.Name != want {
			t.Errorf("%q ranked %v first, want %s", in, names(hitTools(hits)), want)
		}
	}
}

// FuzzSelect holds Select to what it promises for any request a person
// could type or traffic a tool could return, over the captured catalogue
// at a window too small to offer it whole: the core set first, no tool
// twice, none marked Unoffered, within the budget, Tokens and Bytes as
// measured, and the same selection from a second index. Rank returns
// each tool at most once, best first, with finite positive scores.
func FuzzSelect(f *testing.F) {
	for _, s := range []string{"", " ", "what changed in the last commit?", "ÉTÉ à PARIS 今晚 \x00\x1b[31m\u202e",
		"not the \"linear\" board, not in 'jira'", "https://github.com/a/b/issues/7 ~/x/y.go C:\\x\\y", "\xff\xfe\xfd",
		strings.Repeat("widget ", 500), "eng-1423 +15551234567 1e999 -0 NaN ((((", "“quoted” «x» 「y」 'z"} {
		f.Add(s, s)
	}
	cat := catalogueOf(f, serverFolders[:2]...)
	ix, again := selector.NewIndex(cat), selector.NewIndex(cat)
	s := selector.Selector{ContextTokens: 128_000}
	budget := selector.BudgetFor(ix.CatalogueTokens(), s.ContextTokens)
	if selector.OffersWhole(ix.CatalogueTokens(), s.ContextTokens) {
		f.Fatalf("the catalogue (%d tokens) is offered whole at 128,000 tokens; the fuzz test needs one that is not", ix.CatalogueTokens())
	}
	f.Fuzz(func(t *testing.T, input, traffic string) {
		req := selector.Request{Query: selector.Query{Input: input, Traffic: traffic}}
		got := s.Select(ix, req)
		offered := names(got.Tools)
		if len(offered) < len(selector.DefaultCore) || !slices.Equal(offered[:len(selector.DefaultCore)], selector.DefaultCore) {
			t.Fatalf("offered %v; want the core set %v first", offered, selector.DefaultCore)
		}
		seen, bytes := map[string]bool{}, 0
		for _, tl := range got.Tools {
			if seen[tl.Name] || tl.Unoffered {
				t.Fatalf("%s offered twice or though unoffered: %v", tl.Name, offered)
			}
			seen[tl.Name] = true
			bytes += selector.SpecBytes(tl)
		}
		if bytes != got.Bytes || got.Tokens != selector.Tokens(bytes) || got.Tokens > budget.MaxTokens || len(got.Tools) > budget.MaxTools {
			t.Fatalf("%d tools, %d bytes (counted %d), %d tokens; budget %+v", len(got.Tools), got.Bytes, bytes, got.Tokens, budget)
		}
		if other := names(s.Select(again, req).Tools); !slices.Equal(other, offered) {
			t.Fatalf("another index of the same catalogue offers %v, this one %v", other, offered)
		}
		hits, ranked := ix.Rank(req.Query), map[string]bool{}
		for i, h := range hits {
			if ranked[h.Tool.Name] || !(h.Score > 0) || math.IsInf(h.Score, 0) || i > 0 && h.Score > hits[i-1].Score {
				t.Fatalf("hit %d: %s scores %v after %v (or twice)", i, h.Tool.Name, h.Score, hits[max(i-1, 0)].Score)
			}
			ranked[h.Tool.Name] = true
		}
	})
}
