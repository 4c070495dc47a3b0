package memory

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed memory_save.md
var saveDescription string

const saveSchema = `{
  "type": "object",
  "properties": {
    "text": {"type": "string", "minLength": 1, "maxLength": 4000, "description": "The note, self-contained: it will be read without this conversation."},
    "tags": {"type": "array", "maxItems": 10, "items": {"type": "string", "pattern": "^[^\\s,]{1,40}$"}, "description": "Optional keywords, each one word without spaces or commas, e.g. [\"build\", \"tai\"]."}
  },
  "required": ["text"],
  "additionalProperties": false
}`

func saveTool() *tools.Tool {
	return tools.DefineVault(tools.Tool{
		Name:        SaveName,
		Group:       Group,
		Description: strings.TrimSpace(saveDescription),
		Schema:      json.RawMessage(saveSchema),
		Safe:        tools.AlwaysSafe,
	}, save)
}

type saveArgs struct {
	Text string   `json:"text"`
	Tags []string `json:"tags"`
}

func save(ctx context.Context, s *vault.Store, call tools.Call, in saveArgs) (string, error) {
	text := strings.TrimSpace(s.Redact(in.Text))
	if text == "" {
		return "", errors.New("the text is blank; write the note to keep")
	}
	var tags []string
	for _, t := range in.Tags {
		if t = strings.ToLower(t); !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	m, err := s.SaveMemory(ctx, call.Env.Profile, text, tags)
	if err != nil {
		return "", err
	}
	return "saved memory " + m.ID, nil
}
