package vaulttools

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"tai/internal/tools"
	"tai/internal/vault"
)

// defaultAuditRows is how many rows audit_query returns unless told.
const defaultAuditRows = 50

func auditQuery(ctx context.Context, s *vault.Store, call tools.Call, in auditQueryArgs) (string, error) {
	q := vault.AuditQuery{Profile: call.Env.Profile, Kind: in.Kind, Subject: in.Subject, Limit: in.Limit}
	q.Limit = cmp.Or(q.Limit, defaultAuditRows)
	if in.Since != "" {
		t, err := vault.ParseSince(in.Since, time.Now())
		if err != nil {
			return "", fmt.Errorf("since %v", err)
		}
		q.Since = t
	}
	rows, err := s.AuditEntries(ctx, q)
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return fmt.Sprintf("no audit rows of profile %s match", call.Env.Profile), nil
	}
	var b strings.Builder
	if len(rows) == q.Limit {
		fmt.Fprintf(&b, "the last %d matching rows (the limit), oldest first:\n", len(rows))
	} else {
		fmt.Fprintf(&b, "%d matching rows, oldest first:\n", len(rows))
	}
	b.WriteString("seq\ttime\tkind\tsubject\toutcome\tms\tsize\tdigest\n")
	for _, e := range rows {
		fmt.Fprintf(&b, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", e.Seq, time.UnixMilli(e.TS).Format("2006-01-02 15:04:05"),
			e.Kind, e.Subject, e.Outcome, e.DurationMS, e.Size, orDash(e.Digest))
	}
	return b.String(), nil
}

type auditQueryArgs struct {
	Since   string `json:"since,omitempty" jsonschema:"Only rows from this far back (\"30m\", \"24h\", \"7d\") or since this date or time (\"2026-11-01\", RFC 3339)." minLength:"1" maxLength:"40"`
	Kind    string `json:"kind,omitempty" jsonschema:"Only rows of this kind, e.g. \"tool\", \"mcp-call\", \"secret-set\", \"setting-set\", \"profile-use\"." minLength:"1" maxLength:"64"`
	Subject string `json:"subject,omitempty" jsonschema:"Only rows whose subject contains this, e.g. a tool name or \"server/tool\"." minLength:"1" maxLength:"200"`
	Limit   int    `json:"limit,omitempty" jsonschema:"Most rows to return, the most recent. Default 50." minimum:"1" maximum:"500"`
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
