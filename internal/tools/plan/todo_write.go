package plan

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

// todoItem is a vault.Todo as the model writes it.
type todoItem struct {
	Content string `json:"content" jsonschema:"What to do, as a short imperative." minLength:"1" maxLength:"500"`
	Status  string `json:"status" enum:"pending,in_progress,completed"`
}

func write(ctx context.Context, s *vault.Store, call tools.Call, in writeArgs) (string, error) {
	todos := make([]vault.Todo, len(in.Todos))
	for i, it := range in.Todos {
		todos[i] = vault.Todo(it)
	}
	if err := check(todos); err != nil {
		return "", fmt.Errorf("%v; nothing was saved", err)
	}
	if err := s.SetTodos(ctx, call.Env.Profile, call.Env.Session, todos); err != nil {
		return "", err
	}
	return Format(todos), nil
}

type writeArgs struct {
	Todos []todoItem `json:"todos" jsonschema:"The whole list, in order." maxItems:"50"`
}

// check enforces what the schema cannot say: items are not blank or
// repeated, and at most one is in progress.
func check(items []vault.Todo) error {
	seen := map[string]int{}
	working := 0
	for i := range items {
		it := &items[i]
		it.Content = strings.TrimSpace(it.Content)
		if it.Content == "" {
			return fmt.Errorf("item %d has blank content", i+1)
		}
		if j, dup := seen[it.Content]; dup {
			return fmt.Errorf("item %d repeats item %d (%q)", i+1, j, it.Content)
		}
		seen[it.Content] = i + 1
		if it.Status == vault.TodoInProgress {
			if working > 0 {
				return fmt.Errorf("items %d and %d are both in_progress; at most one item may be", working, i+1)
			}
			working = i + 1
		}
	}
	return nil
}
