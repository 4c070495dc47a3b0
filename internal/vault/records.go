package vault

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Record is a stored body: a spilled tool result, a note, a transcript.
type Record struct {
	ID      string
	Kind    string
	Profile string
	Created int64
	Size    int
	Body    string
}

// idAlphabet leaves out characters people misread (0/o, 1/l/i).
const idAlphabet = "23456789abcdefghjkmnpqrstuvwxyz"

// NewID returns a short typeable id with the given one-letter prefix.
func NewID(prefix string) string {
	b := make([]byte, 7)
	_, _ = rand.Read(b)
	var sb strings.Builder
	sb.WriteString(prefix)
	for _, c := range b {
		sb.WriteByte(idAlphabet[int(c)%len(idAlphabet)])
	}
	return sb.String()
}

// PutRecord stores body and returns its new id.
func (s *Store) PutRecord(ctx context.Context, profile, kind, body string) (string, error) {
	for range 5 {
		id := NewID("r")
		res, err := s.db.ExecContext(ctx,
			`INSERT OR IGNORE INTO records(id, kind, profile, created, size, body) VALUES (?, ?, ?, ?, ?, ?)`,
			id, kind, profile, s.now(), len(body), body)
		if err != nil {
			return "", classify(err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return id, nil
		}
	}
	return "", fmt.Errorf("could not allocate a record id")
}

// Record returns one record by id.
func (s *Store) Record(ctx context.Context, id string) (Record, error) {
	var r Record
	err := s.db.QueryRowContext(ctx,
		`SELECT id, kind, profile, created, size, body FROM records WHERE id = ?`, strings.TrimSpace(id)).
		Scan(&r.ID, &r.Kind, &r.Profile, &r.Created, &r.Size, &r.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("record %q: %w", id, ErrNotFound)
	}
	return r, classify(err)
}

// RecordQuery filters Records.
type RecordQuery struct {
	Profile string // "" for all
	Kind    string // "" for all
	Text    string // substring of the body, "" for all
	Limit   int    // 0 means 50
}

// Records lists records newest first, bodies left empty.
func (s *Store) Records(ctx context.Context, q RecordQuery) ([]Record, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	var c conditions
	if q.Profile != "" {
		c.add("profile = ?", q.Profile)
	}
	if q.Kind != "" {
		c.add("kind = ?", q.Kind)
	}
	if q.Text != "" {
		c.add("instr(lower(body), lower(?)) > 0", q.Text)
	}
	query := `SELECT id, kind, profile, created, size FROM records` + c.where() + ` ORDER BY created DESC, rowid DESC LIMIT ?`
	return queryRows(ctx, s.db, func(rows *sql.Rows) (r Record, err error) {
		err = rows.Scan(&r.ID, &r.Kind, &r.Profile, &r.Created, &r.Size)
		return r, err
	}, query, append(c.args, q.Limit)...)
}

// DeleteRecord removes a record; a missing one is ErrNotFound.
func (s *Store) DeleteRecord(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM records WHERE id = ?`, id)
	if err != nil {
		return classify(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("record %q: %w", id, ErrNotFound)
	}
	return nil
}
