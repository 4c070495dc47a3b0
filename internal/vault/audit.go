package vault

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// AuditEntry is one row of the append-only audit trail.
type AuditEntry struct {
	Seq        int64
	TS         int64 // Unix milliseconds
	Profile    string
	Kind       string // e.g. "mcp-call", "tool", "secret-set", "seal"
	Subject    string // e.g. "server/tool"
	Digest     string // digest of the arguments, never the arguments
	Outcome    string // "ok", "error", "tool-error", "protocol-error", "denied" …
	DurationMS int64
	Size       int64
	PrevHash   string
	Hash       string
}

// genesis is the prev_hash of the first row.
const genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// hashOf covers every column of the row and the previous hash.
func hashOf(e AuditEntry) string {
	b, _ := json.Marshal([]any{e.Seq, e.TS, e.Profile, e.Kind, e.Subject, e.Digest, e.Outcome,
		e.DurationMS, e.Size, e.PrevHash})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Digest returns a short stable digest of b, for arguments in audit rows and
// consent screens.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// Audit appends e to the trail. The write lock is taken first, so several
// processes appending at once still leave one chain.
func (s *Store) Audit(ctx context.Context, e AuditEntry) error {
	if e.TS == 0 {
		e.TS = s.opts.Now().UnixMilli()
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var seq int64
		prev := genesis
		err := tx.QueryRowContext(ctx, `SELECT seq, hash FROM audit_head WHERE id = 1`).Scan(&seq, &prev)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return classify(err)
		}
		e.Seq, e.PrevHash = seq+1, prev
		e.Hash = hashOf(e)
		if _, err := tx.ExecContext(ctx, `INSERT INTO audit(seq, ts, profile, kind, subject, digest, outcome,
			duration_ms, size, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.Seq, e.TS, e.Profile, e.Kind, e.Subject, e.Digest, e.Outcome, e.DurationMS, e.Size, e.PrevHash, e.Hash); err != nil {
			return classify(err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO audit_head(id, seq, hash) VALUES (1, ?, ?)
			ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`, e.Seq, e.Hash)
		return classify(err)
	})
}

// AuditQuery filters AuditEntries.
type AuditQuery struct {
	Since   time.Time
	Kind    string
	Subject string // substring match, e.g. a tool or "server/tool"
	Profile string
	Limit   int // 0 means no limit
}

// AuditEntries returns matching rows in order.
func (s *Store) AuditEntries(ctx context.Context, q AuditQuery) ([]AuditEntry, error) {
	var where []string
	var args []any
	if !q.Since.IsZero() {
		where, args = append(where, "ts >= ?"), append(args, q.Since.UnixMilli())
	}
	if q.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, q.Kind)
	}
	if q.Subject != "" {
		where, args = append(where, "instr(subject, ?) > 0"), append(args, q.Subject)
	}
	if q.Profile != "" {
		where, args = append(where, "profile = ?"), append(args, q.Profile)
	}
	query := `SELECT seq, ts, profile, kind, subject, digest, outcome, duration_ms, size, prev_hash, hash FROM audit`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY seq"
	if q.Limit > 0 {
		query = fmt.Sprintf("SELECT * FROM (%s DESC LIMIT %d) ORDER BY seq", query, q.Limit)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		if err := rows.Scan(&e.Seq, &e.TS, &e.Profile, &e.Kind, &e.Subject, &e.Digest, &e.Outcome,
			&e.DurationMS, &e.Size, &e.PrevHash, &e.Hash); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// AuditProblem is one finding of VerifyAudit.
type AuditProblem struct {
	Seq    int64
	Reason string
}

func (p AuditProblem) String() string { return fmt.Sprintf("seq %d: %s", p.Seq, p.Reason) }

// VerifyAudit walks the chain and reports every row that was edited,
// inserted or deleted, and a head that no longer matches the last row.
func (s *Store) VerifyAudit(ctx context.Context) (rows int, problems []AuditProblem, err error) {
	all, err := s.AuditEntries(ctx, AuditQuery{})
	if err != nil {
		return 0, nil, err
	}
	prev, want := genesis, int64(1)
	for _, e := range all {
		switch {
		case e.Seq != want:
			problems = append(problems, AuditProblem{e.Seq, fmt.Sprintf("expected seq %d: rows are missing before it", want)})
		case e.PrevHash != prev:
			problems = append(problems, AuditProblem{e.Seq, "does not follow the previous row: a row before it was edited, inserted or deleted"})
		}
		if hashOf(e) != e.Hash {
			problems = append(problems, AuditProblem{e.Seq, "its contents do not match its hash: the row was edited"})
		}
		prev, want = e.Hash, e.Seq+1
	}
	var headSeq int64
	headHash := genesis
	err = s.db.QueryRowContext(ctx, `SELECT seq, hash FROM audit_head WHERE id = 1`).Scan(&headSeq, &headHash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return len(all), problems, classify(err)
	}
	if headSeq != want-1 || headHash != prev {
		problems = append(problems, AuditProblem{headSeq, fmt.Sprintf("the head names seq %d but the trail ends at seq %d: rows at the end were deleted or the head was altered", headSeq, want-1)})
	}
	return len(all), problems, nil
}
