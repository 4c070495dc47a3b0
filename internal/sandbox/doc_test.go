package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/reliability.md lists the protected paths and the caches a
// workspace-write command may fill: the same as the code's one list.
func TestDoc_ListsWhatTheCodeProtects(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "reliability.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "## The sandbox")
	if i < 0 {
		t.Fatal(`docs/reliability.md has no "The sandbox" section`)
	}
	section := doc[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	for _, p := range append(append([]string{}, protectedInHome...), caches...) {
		if !strings.Contains(section, "`"+p+"`") {
			t.Errorf("the sandbox section does not name `%s`", p)
		}
	}
	for _, m := range []string{ReadOnly, WorkspaceWrite, Off} {
		if !strings.Contains(section, "`"+m+"`") {
			t.Errorf("the sandbox section does not name the mode `%s`", m)
		}
	}
}
