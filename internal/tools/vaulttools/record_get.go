package vaulttools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

//go:embed record_get.md
var recordGetDescription string

const recordIDSchema = `{"type": "string", "minLength": 1, "maxLength": 64, "description": "The record's id, e.g. \"r7hq2mxa\"."}`

var recordGetSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "id": %s,
    "unit": {"type": "string", "enum": ["bytes", "lines"], "description": "Page by bytes (default) or by lines."},
    "offset": {"type": "integer", "minimum": 0, "description": "How many bytes or lines to skip: 0 (the default) starts at the beginning."},
    "limit": {"type": "integer", "minimum": 1, "maximum": %d, "description": "Most bytes (default %d) or lines (default %d) to return; a page stops at 64 KiB either way."}
  },
  "required": ["id"],
  "additionalProperties": false
}`, recordIDSchema, pageMax, defaultBytes, defaultLines)

func recordGetTool() *tools.Tool {
	return tools.DefineVault(tools.Tool{
		Name:        RecordGetName,
		Group:       Group,
		Description: strings.TrimSpace(recordGetDescription),
		Schema:      json.RawMessage(recordGetSchema),
		Safe:        tools.AlwaysSafe,
	}, recordGet)
}

type recordArgs struct {
	ID     string `json:"id"`
	Unit   string `json:"unit"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func recordGet(ctx context.Context, s *vault.Store, call tools.Call, in recordArgs) (string, error) {
	r, err := profileRecord(ctx, s, call.Env.Profile, in.ID)
	if err != nil {
		return "", err
	}
	// Redact the whole body before paging, so a secret value cut by a page
	// boundary is never shown in two halves; offsets count the redacted body.
	body := s.Redact(r.Body)
	if body == "" {
		return fmt.Sprintf("record %s (%s) is empty", r.ID, r.Kind), nil
	}
	var p page
	if in.Unit == "lines" {
		if in.Limit == 0 {
			in.Limit = defaultLines
		}
		p, err = lineRange(body, in.Offset, in.Limit)
	} else {
		if in.Limit == 0 {
			in.Limit = defaultBytes
		}
		p, err = byteRange(body, in.Offset, in.Limit)
	}
	if err != nil {
		return "", fmt.Errorf("record %s: %v", r.ID, err)
	}
	return fmt.Sprintf("record %s (%s, created %s): %s\n\n%s", r.ID, r.Kind, when(r.Created), p.label(), p.text), nil
}

// profileRecord fetches a record of profile; another profile's record is
// reported as missing, since profiles separate what tai trusts.
func profileRecord(ctx context.Context, s *vault.Store, profile, id string) (vault.Record, error) {
	id = strings.TrimSpace(id)
	r, err := s.Record(ctx, id)
	if vault.IsNotFound(err) || err == nil && r.Profile != profile {
		return vault.Record{}, fmt.Errorf("no record %q in profile %s; find ids with %s", id, profile, RecordSearchName)
	}
	return r, err
}
