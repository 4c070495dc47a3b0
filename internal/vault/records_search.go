package vault

import (
	"context"
	"strings"
	"unicode/utf8"
)

// RecordHit is a record found by SearchRecords.
type RecordHit struct {
	Record // Body left empty
	// Offset is the byte offset in the body of the first match of the
	// query's text, or -1 when the query has no text.
	Offset int
	// Snippet is the text around the first match (the body's start when the
	// query has no text), cut to whole characters.
	Snippet string
}

// SearchRecords lists records like Records, newest first, each with where
// q.Text first occurs (ASCII letters match either case) and a snippet of up
// to around bytes either side of it.
func (s *Store) SearchRecords(ctx context.Context, q RecordQuery, around int) ([]RecordHit, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	// Positions are byte offsets: lower() folds ASCII only, so it keeps
	// every byte where it was, and instr and substr over BLOBs count bytes.
	pos, args := "1", []any{}
	if q.Text != "" {
		pos, args = "instr(CAST(lower(body) AS BLOB), CAST(lower(?) AS BLOB))", append(args, q.Text)
	}
	where := []string{"1"}
	if q.Profile != "" {
		where, args = append(where, "profile = ?"), append(args, q.Profile)
	}
	if q.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, q.Kind)
	}
	span := 2 * around
	if q.Text != "" {
		span += len(q.Text)
	}
	query := `SELECT id, kind, profile, created, size, pos, substr(CAST(body AS BLOB), max(pos - ?, 1), ?)
		FROM (SELECT id, kind, profile, created, size, body, rowid AS rid, ` + pos + ` AS pos FROM records
		WHERE ` + strings.Join(where, " AND ") + `) WHERE pos > 0 ORDER BY created DESC, rid DESC LIMIT ?`
	args = append([]any{around, span}, args...)
	args = append(args, q.Limit)
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	var out []RecordHit
	for rows.Next() {
		var h RecordHit
		var snippet []byte
		if err := rows.Scan(&h.ID, &h.Kind, &h.Profile, &h.Created, &h.Size, &h.Offset, &snippet); err != nil {
			return nil, err
		}
		h.Offset--
		if q.Text == "" {
			h.Offset = -1
		}
		h.Snippet = wholeRunes(snippet)
		out = append(out, h)
	}
	return out, rows.Err()
}

// wholeRunes drops the partial characters a byte cut leaves at either end.
func wholeRunes(b []byte) string {
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
	}
	return string(b)
}
