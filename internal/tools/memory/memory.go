// Package memory holds tai's long-term memory tools: memory_save,
// memory_search and memory_delete. Memories are short notes kept per
// profile in the vault, across conversations. They are tai's own scratch
// state, so every call is safe (docs/host.md §5).
package memory

import (
	"embed"
	"fmt"
	"strings"
	"time"

	"tai/internal/tools"
	"tai/internal/vault"
)

// Group is the catalogue group of these tools.
const Group = "memory"

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// format renders memories for the model: a header line per memory with its
// id, date and tags, then its text indented.
func format(ms []vault.Memory) string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s] %s", m.ID, time.Unix(m.Created, 0).Format("2006-01-02 15:04"))
		if len(m.Tags) > 0 {
			fmt.Fprintf(&b, " tags: %s", strings.Join(m.Tags, ", "))
		}
		b.WriteByte('\n')
		for line := range strings.SplitSeq(m.Text, "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

// Tools returns the memory group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: Group, Docs: docs}
	return []*tools.Tool{
		tools.DefineVault(group.Tool(SaveName, tools.AlwaysSafe), save),
		tools.DefineVault(group.Tool(SearchName, tools.AlwaysSafe), search),
		tools.DefineVault(group.Tool(DeleteName, tools.AlwaysSafe), deleteMemory),
	}
}

// Tool names.
const (
	SaveName   = "memory_save"
	SearchName = "memory_search"
	DeleteName = "memory_delete"
)
