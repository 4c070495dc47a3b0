package vault

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"tai/internal/seal"
)

// AuditEntry is one row of the append-only audit trail.
type AuditEntry struct {
	Seq     int64
	TS      int64 // Unix milliseconds
	Profile string
	Kind    string // e.g. "mcp-call", "tool", "secret-set", "vault-seal"
	Subject string // e.g. "server/tool"
	Digest  string // digest of the arguments, never the arguments
	Outcome string // "ok", "error", "tool-error", "protocol-error", "denied" …
	// Origin is the door a tool call came through (OriginAgent, …); ""
	// for other rows.
	Origin     string
	DurationMS int64
	Size       int64
	PrevHash   string
	Hash       string
	// KeyID is "" when Hash is a plain SHA-256 link, else the id of the
	// chain key (derived from the seal key) that Hash is an HMAC under.
	KeyID string
}

// genesis is the prev_hash of the first row.
const genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// auditChainPurpose names the chain key derived from the seal key.
const auditChainPurpose = "tai audit chain v1"

// rowBytes is what a row's hash covers: every column but the hash itself
// and key_id (a row moved between kinds no longer verifies either way).
// Origin is covered when set; rows from before it have none, and their
// hashes stay as written.
func rowBytes(e AuditEntry) []byte {
	cols := []any{e.Seq, e.TS, e.Profile, e.Kind, e.Subject, e.Digest, e.Outcome,
		e.DurationMS, e.Size, e.PrevHash}
	if e.Origin != "" {
		cols = append(cols, e.Origin)
	}
	b, _ := json.Marshal(cols)
	return b
}

// hashOf is a plain row's hash: anyone can recompute it.
func hashOf(e AuditEntry) string {
	sum := sha256.Sum256(rowBytes(e))
	return hex.EncodeToString(sum[:])
}

// macOf is a keyed row's hash: only a holder of the chain key can compute it.
func macOf(chainKey []byte, e AuditEntry) string {
	m := hmac.New(sha256.New, chainKey)
	m.Write(rowBytes(e))
	return hex.EncodeToString(m.Sum(nil))
}

// chainKeyOf derives the audit chain key from the seal key.
func chainKeyOf(sealKey []byte) []byte { return seal.Subkey(sealKey, auditChainPurpose) }

// keyIDOf names a chain key without revealing it.
func keyIDOf(chainKey []byte) string {
	m := hmac.New(sha256.New, chainKey)
	m.Write([]byte("key id"))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// Digest returns a short stable digest of b, for arguments in audit rows and
// consent screens.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// Audit appends e to the trail. The write lock is taken first, so several
// processes appending at once still leave one chain. On a sealed vault the
// row is keyed (an HMAC under a key derived from the seal key): Audit asks
// for the passphrase through Options.Passphrase once, as reading a sealed
// value does. Without it the row is still written, with a plain hash, and
// VerifyAudit reports it, since such a row cannot be told from a forged one.
// After the commit the anchor beside the vault is moved forward.
func (s *Store) Audit(ctx context.Context, e AuditEntry) error {
	key, err := s.auditKey(ctx)
	if err != nil {
		return err
	}
	var row AuditEntry
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		row, err = s.appendAudit(ctx, tx, key, e)
		return err
	})
	if err != nil {
		return err
	}
	return s.advanceAnchor(row)
}

// auditKey is the seal key when the vault is sealed and the passphrase is
// at hand, else nil. It is read before the write lock is taken, so a person
// typing the passphrase holds no other process up.
func (s *Store) auditKey(ctx context.Context) ([]byte, error) {
	s.mu.Lock()
	key, refused := s.key, s.auditKeyRefused
	s.mu.Unlock()
	if key != nil || refused {
		return key, nil
	}
	if p, err := s.sealParams(ctx, s.db); err != nil || p == nil {
		return nil, err
	}
	key, err := s.unlockedKey(ctx)
	if err != nil {
		// The event is still recorded, and verification names the plain
		// row; the person is not asked again at every row.
		s.mu.Lock()
		s.auditKeyRefused = true
		s.mu.Unlock()
		return nil, nil
	}
	return key, nil
}

// appendAudit writes e as the chain's next row inside tx, which must hold
// the write lock, and returns the row as written. sealKey may be nil or
// stale: the row is keyed only when sealKey opens the vault's current seal.
func (s *Store) appendAudit(ctx context.Context, tx *sql.Tx, sealKey []byte, e AuditEntry) (AuditEntry, error) {
	if e.TS == 0 {
		e.TS = s.opts.Now().UnixMilli()
	}
	var seq int64
	prev := genesis
	err := tx.QueryRowContext(ctx, `SELECT seq, hash FROM audit_head WHERE id = 1`).Scan(&seq, &prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return e, classify(err)
	}
	e.Seq, e.PrevHash = seq+1, prev
	sc, err := s.readSealCheck(ctx, tx, sealKey)
	if err != nil {
		return e, err
	}
	if sc.open {
		chainKey := chainKeyOf(sealKey)
		e.KeyID, e.Hash = keyIDOf(chainKey), macOf(chainKey, e)
		if sc.keyedFrom == 0 {
			// The first keyed row under this seal: the seal check, which
			// nobody can rewrite without the passphrase, now records where
			// keying began, so cutting the trail back before it shows.
			if err := writeSealCheck(ctx, tx, sealKey, e.Seq); err != nil {
				return e, err
			}
		}
	} else {
		e.KeyID, e.Hash = "", hashOf(e)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO audit(seq, ts, profile, kind, subject, digest, outcome,
		duration_ms, size, prev_hash, hash, key_id, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Seq, e.TS, e.Profile, e.Kind, e.Subject, e.Digest, e.Outcome, e.DurationMS, e.Size, e.PrevHash, e.Hash, e.KeyID, e.Origin); err != nil {
		return e, classify(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO audit_head(id, seq, hash) VALUES (1, ?, ?)
		ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`, e.Seq, e.Hash); err != nil {
		return e, classify(err)
	}
	return e, s.markAnchored(ctx, tx)
}

// AuditQuery filters AuditEntries.
type AuditQuery struct {
	Since   time.Time
	Kind    string
	Subject string // substring match, e.g. a tool or "server/tool"
	Profile string
	Limit   int // 0 means no limit
}

const auditColumns = `seq, ts, profile, kind, subject, digest, outcome, duration_ms, size, prev_hash, hash, key_id, origin`

// AuditEntries returns matching rows in order.
func (s *Store) AuditEntries(ctx context.Context, q AuditQuery) ([]AuditEntry, error) {
	var c conditions
	if !q.Since.IsZero() {
		c.add("ts >= ?", q.Since.UnixMilli())
	}
	if q.Kind != "" {
		c.add("kind = ?", q.Kind)
	}
	if q.Subject != "" {
		c.add("instr(subject, ?) > 0", q.Subject)
	}
	if q.Profile != "" {
		c.add("profile = ?", q.Profile)
	}
	query := `SELECT ` + auditColumns + ` FROM audit` + c.where() + " ORDER BY seq"
	if q.Limit > 0 {
		query = fmt.Sprintf("SELECT * FROM (%s DESC LIMIT %d) ORDER BY seq", query, q.Limit)
	}
	return scanAudit(ctx, s.db, query, c.args...)
}

func scanAudit(ctx context.Context, q querier, query string, args ...any) ([]AuditEntry, error) {
	out, err := queryRows(ctx, q, func(rows *sql.Rows) (e AuditEntry, err error) {
		err = rows.Scan(&e.Seq, &e.TS, &e.Profile, &e.Kind, &e.Subject, &e.Digest, &e.Outcome,
			&e.DurationMS, &e.Size, &e.PrevHash, &e.Hash, &e.KeyID, &e.Origin)
		return e, err
	}, query, args...)
	return out, classify(err) // the rows' error as before; classify leaves a scan error as it is
}
