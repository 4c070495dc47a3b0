// Package plan holds the todo list tools, todo_read and todo_write: the
// plan of the current conversation, stored in the vault per profile and
// session. The list is tai's own scratch state, so both are safe.
package plan

import (
	"embed"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

// Group is the catalogue group of these tools.
const Group = "plan"

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

var marks = map[string]string{
	vault.TodoPending:    "[ ]",
	vault.TodoInProgress: "[>]",
	vault.TodoCompleted:  "[x]",
}

// Format renders a todo list: a count by status, then one numbered line
// per item, "[x]" completed, "[>]" in progress, "[ ]" pending.
func Format(items []vault.Todo) string {
	if len(items) == 0 {
		return "the todo list is empty"
	}
	count := map[string]int{}
	for _, it := range items {
		count[it.Status]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d todos: %d completed, %d in progress, %d pending\n", len(items),
		count[vault.TodoCompleted], count[vault.TodoInProgress], count[vault.TodoPending])
	for i, it := range items {
		fmt.Fprintf(&b, "%d. %s %s\n", i+1, marks[it.Status], it.Content)
	}
	return b.String()
}

// Tools returns the plan group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: Group, Docs: docs}
	return []*tools.Tool{
		tools.DefineVault(group.Tool(ReadName, tools.AlwaysSafe), read),
		tools.DefineVault(group.Tool(WriteName, tools.AlwaysSafe), write),
	}
}

// Tool names.
const (
	ReadName  = "todo_read"
	WriteName = "todo_write"
)
