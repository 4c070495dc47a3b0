package vaulttools

import (
	"context"
	"fmt"

	"tai/internal/tools"
	"tai/internal/vault"
)

// recordDeleteConsent says what the record is, so the person knows what
// they would lose.
func recordDeleteConsent(call tools.Call, in idArgs) tools.Consent {
	c := tools.Consent{Title: fmt.Sprintf("%s: %s", RecordDeleteName, in.ID),
		Detail: fmt.Sprintf("delete record %q; this cannot be undone", in.ID)}
	if s, err := call.Env.Vault(); err == nil {
		if r, err := profileRecord(context.Background(), s, call.Env.Profile, in.ID); err == nil {
			c.Detail = fmt.Sprintf("delete record %s (%s, %d bytes, created %s) from profile %s; this cannot be undone",
				r.ID, r.Kind, r.Size, when(r.Created), r.Profile)
		}
	}
	return c
}

// idArgs names one record.
// idArgs names one record.
type idArgs struct {
	ID string `json:"id" jsonschema:"The record's id, e.g. \"r7hq2mxa\"." minLength:"1" maxLength:"64"`
}

func recordDelete(ctx context.Context, s *vault.Store, call tools.Call, in idArgs) (string, error) {
	r, err := profileRecord(ctx, s, call.Env.Profile, in.ID)
	if err != nil {
		return "", err
	}
	if err := s.DeleteRecord(ctx, r.ID); err != nil {
		return "", err
	}
	out := fmt.Sprintf("deleted record %s (%s, %d bytes)", r.ID, r.Kind, r.Size)
	return out + call.Env.AuditChange(ctx, "record-rm", r.ID), nil
}
