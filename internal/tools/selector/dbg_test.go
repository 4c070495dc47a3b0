package selector_test

import (
	"os"
	"testing"

	"tai/internal/tools/selector"
)

func TestDebugQuery(t *testing.T) {
	q := os.Getenv("Q")
	if q == "" {
		t.Skip()
	}
	cat := unseenCatalogue(t)
	if os.Getenv("CAT") == "bench" {
		cat = benchCatalogue(t)
	}
	ix := selector.NewIndex(cat)
	for i, h := range ix.Rank(selector.Query{Input: q}) {
		if i > 25 {
			break
		}
		t.Logf("%2d %-50s %.3f %d", i+1, h.Tool.Name, h.Score, selector.SpecTokens(h.Tool))
	}
	sel := selector.Selector{}.Select(ix, selector.Request{Query: selector.Query{Input: q}})
	t.Logf("offered %d tools %d tokens", len(sel.Tools), sel.Tokens)
	for _, x := range sel.Tools {
		t.Logf("  %s", x.Name)
	}
}
