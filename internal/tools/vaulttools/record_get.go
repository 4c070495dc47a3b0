package vaulttools

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

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
		in.Limit = cmp.Or(in.Limit, defaultLines)
		p, err = lineRange(body, in.Offset, in.Limit)
	} else {
		in.Limit = cmp.Or(in.Limit, defaultBytes)
		p, err = byteRange(body, in.Offset, in.Limit)
	}
	if err != nil {
		return "", fmt.Errorf("record %s: %v", r.ID, err)
	}
	return fmt.Sprintf("record %s (%s, created %s): %s\n\n%s", r.ID, r.Kind, when(r.Created), p.label(), p.text), nil
}

// recordArgs pages through one record; limit's maximum is pageMax and its
// defaults defaultBytes and defaultLines (a test keeps them in step).
type recordArgs struct {
	idArgs
	Unit   string `json:"unit,omitempty" jsonschema:"Page by bytes (default) or by lines." enum:"bytes,lines"`
	Offset int    `json:"offset,omitempty" jsonschema:"How many bytes or lines to skip: 0 (the default) starts at the beginning." minimum:"0"`
	Limit  int    `json:"limit,omitempty" jsonschema:"Most bytes (default 16384) or lines (default 400) to return; a page stops at 64 KiB either way." minimum:"1" maximum:"65536"`
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
