package selector_test

import (
	"os"
	"strings"
	"testing"

	"tai/internal/tools/selector"
)

func TestDebugExplain(t *testing.T) {
	q, tool := os.Getenv("Q"), os.Getenv("T")
	if q == "" {
		t.Skip()
	}
	cat := unseenCatalogue(t)
	if os.Getenv("CAT") == "bench" {
		cat = benchCatalogue(t)
	}
	ix := selector.NewIndex(cat)
	for _, w := range strings.Fields(q) {
		for _, name := range strings.Split(tool, ",") {
			for _, h := range ix.Rank(selector.Query{Input: w}) {
				if h.Tool.Name == name {
					t.Logf("%-12s %-40s %.3f", w, name, h.Score)
				}
			}
		}
	}
}
