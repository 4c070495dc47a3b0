package plan

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed todo_write.md
var writeDescription string

// maxItems bounds a todo list.
const maxItems = 50

var writeSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "todos": {
      "type": "array",
      "maxItems": %d,
      "description": "The whole list, in order.",
      "items": {
        "type": "object",
        "properties": {
          "content": {"type": "string", "minLength": 1, "maxLength": 500, "description": "What to do, as a short imperative."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]}
        },
        "required": ["content", "status"],
        "additionalProperties": false
      }
    }
  },
  "required": ["todos"],
  "additionalProperties": false
}`, maxItems)

func writeTool() *tools.Tool {
	return tools.DefineVault(tools.Tool{
		Name:        WriteName,
		Group:       Group,
		Description: strings.TrimSpace(writeDescription),
		Schema:      json.RawMessage(writeSchema),
		Safe:        tools.AlwaysSafe,
	}, write)
}

type writeArgs struct {
	Todos []vault.Todo `json:"todos"`
}

func write(ctx context.Context, s *vault.Store, call tools.Call, in writeArgs) (string, error) {
	if err := check(in.Todos); err != nil {
		return "", fmt.Errorf("%v; nothing was saved", err)
	}
	if err := s.SetTodos(ctx, call.Env.Profile, call.Env.Session, in.Todos); err != nil {
		return "", err
	}
	return Format(in.Todos), nil
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
