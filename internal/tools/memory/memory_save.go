package memory

import (
	"context"
	"errors"
	"slices"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

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

type saveArgs struct {
	Text string   `json:"text" jsonschema:"The note, self-contained: it will be read without this conversation." minLength:"1" maxLength:"4000"`
	Tags []string `json:"tags,omitempty" jsonschema:"Optional keywords, each one word without spaces or commas, e.g. [\"build\", \"tai\"]." pattern:"^[^\\s,]{1,40}$" maxItems:"10"`
}
