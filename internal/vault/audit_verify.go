package vault

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// AuditProblem is one finding of VerifyAudit.
type AuditProblem struct {
	Seq    int64
	Reason string
}

func (p AuditProblem) String() string { return fmt.Sprintf("seq %d: %s", p.Seq, p.Reason) }

// AuditReport is what VerifyAudit found.
type AuditReport struct {
	Rows    int
	LastSeq int64
	// Anchor is "checked" when the anchor file was compared with the trail,
	// "none yet" when no row was ever anchored, else "missing" or
	// "unreadable" (and a problem says so).
	Anchor string
	// Sealed reports the vault sealed; Locked that no passphrase was at
	// hand, so keyed rows were checked for their links only.
	Sealed, Locked bool
	// KeyedFrom is the row keying began at under the current seal (0 when
	// unknown or not sealed).
	KeyedFrom int64
	// KeyedChecked counts keyed rows whose HMAC was recomputed;
	// KeyedUnchecked keyed rows checked for their links only (the vault is
	// locked, or they were keyed under an earlier seal).
	KeyedChecked, KeyedUnchecked int
	Problems                     []AuditProblem
}

// VerifyAudit walks the chain and reports every row that was edited,
// inserted or deleted, a head that no longer matches the last row, a trail
// shorter than its anchor file, and, on a sealed vault, keyed rows whose
// HMAC fails or that were cut or made plain. The rows, the head and the
// seal state are read in one read transaction, so writers in other
// processes never cause a false alarm; the anchor is read before it, and
// writers move the anchor only after their commit.
//
// On a sealed vault it asks for the passphrase through Options.Passphrase;
// when none is at hand (ErrSealed) it checks keyed rows' links only and
// says so in the report.
func (s *Store) VerifyAudit(ctx context.Context) (AuditReport, error) {
	r, err := s.verifyAudit(ctx)
	// The first writer creates the anchor after its commit and a later
	// one marks the rows anchored, so a verification that found no anchor
	// may still see the mark in its snapshot: the file came meanwhile.
	// A file that is there now was not deleted; verify again, reading it
	// before the snapshot as always.
	if err == nil && r.Anchor == "missing" {
		if a, aerr := readAnchor(s.anchorPath()); aerr != nil || a != nil {
			return s.verifyAudit(ctx)
		}
	}
	return r, err
}

func (s *Store) verifyAudit(ctx context.Context) (AuditReport, error) {
	var r AuditReport
	key, err := s.unlockedKey(ctx)
	if errors.Is(err, ErrSealed) {
		r.Locked, key = true, nil
	} else if err != nil {
		return r, err
	}
	anchor, anchorErr := readAnchor(s.anchorPath())

	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return r, classify(err)
	}
	defer tx.Rollback()
	all, err := scanAudit(ctx, tx, `SELECT `+auditColumns+` FROM audit ORDER BY seq`)
	if err != nil {
		return r, err
	}
	var headSeq int64
	headHash := genesis
	err = tx.QueryRowContext(ctx, `SELECT seq, hash FROM audit_head WHERE id = 1`).Scan(&headSeq, &headHash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return r, classify(err)
	}
	anchored, err := s.meta(ctx, tx, metaAuditAnchored)
	if err != nil {
		return r, err
	}
	params, err := s.sealParams(ctx, tx)
	if err != nil {
		return r, err
	}
	sc, err := s.readSealCheck(ctx, tx, key)
	if err != nil {
		return r, err
	}
	r.Sealed = params != nil
	if r.Sealed && key != nil && !sc.open {
		return r, fmt.Errorf("the passphrase opened the vault but not its current seal: it was sealed again meanwhile; run `tai audit verify` again")
	}

	var chainKey []byte
	var keyID string
	if sc.open {
		chainKey = chainKeyOf(key)
		keyID, r.KeyedFrom = keyIDOf(chainKey), sc.keyedFrom
	}
	r.walk(all, chainKey, keyID)
	r.checkHead(headSeq, headHash, all)
	r.checkAnchor(anchor, anchorErr, anchored == "1", all)
	return r, nil
}

func (r *AuditReport) problem(seq int64, format string, args ...any) {
	r.Problems = append(r.Problems, AuditProblem{seq, fmt.Sprintf(format, args...)})
}

// walk checks each row's link and hash. chainKey is nil unless the vault is
// sealed and unlocked.
func (r *AuditReport) walk(all []AuditEntry, chainKey []byte, keyID string) {
	prev, want := genesis, int64(1)
	for _, e := range all {
		switch {
		case e.Seq != want:
			r.problem(e.Seq, "expected seq %d: rows are missing before it", want)
		case e.PrevHash != prev:
			r.problem(e.Seq, "does not follow the previous row: a row before it was edited, inserted or deleted")
		}
		switch {
		case e.KeyID == "":
			if hashOf(e) != e.Hash {
				r.problem(e.Seq, "its contents do not match its hash: the row was edited")
			}
			if r.KeyedFrom > 0 && e.Seq >= r.KeyedFrom {
				r.problem(e.Seq, "a plain row where the sealed vault's trail is keyed: it was forged or rewritten without the passphrase, or written by a tai that was not given it (set TAI_VAULT_PASSPHRASE for runs without a terminal)")
			}
		case chainKey != nil && e.KeyID == keyID:
			if macOf(chainKey, e) != e.Hash {
				r.problem(e.Seq, "its keyed hash does not match: the row was edited without the passphrase")
			} else {
				r.KeyedChecked++
			}
		case chainKey != nil && r.KeyedFrom > 0 && e.Seq >= r.KeyedFrom:
			r.problem(e.Seq, "keyed with a key other than the current seal's, after this seal's keyed trail began")
		default:
			r.KeyedUnchecked++
		}
		prev, want = e.Hash, e.Seq+1
	}
	r.Rows, r.LastSeq = len(all), want-1
	if r.KeyedFrom > r.LastSeq {
		r.problem(r.LastSeq, "the seal says the keyed trail begins at seq %d but the trail ends here: rows at the end were deleted", r.KeyedFrom)
	}
}

func (r *AuditReport) checkHead(headSeq int64, headHash string, all []AuditEntry) {
	last := genesis
	if len(all) > 0 {
		last = all[len(all)-1].Hash
	}
	if headSeq != r.LastSeq || headHash != last {
		r.problem(headSeq, "the head names seq %d but the trail ends at seq %d: rows at the end were deleted or the head was altered", headSeq, r.LastSeq)
	}
}

// anchorAdvice ends every anchor finding: what to do when the change was
// the person's own.
const anchorAdvice = "if you restored vault.db yourself or a crash lost its last writes, run `tai audit reanchor` to accept the trail as it is"

func (r *AuditReport) checkAnchor(a *auditAnchor, readErr error, anchored bool, all []AuditEntry) {
	switch {
	case readErr != nil:
		r.Anchor = "unreadable"
		r.problem(r.LastSeq, "%v: it was altered (%s)", readErr, anchorAdvice)
	case a == nil && anchored:
		r.Anchor = "missing"
		r.problem(r.LastSeq, "%s is missing though rows were anchored: it was deleted, or vault.db was copied here without it (if you moved it yourself, run `tai audit reanchor`)", AnchorFileName)
	case a == nil:
		r.Anchor = "none yet"
	case a.Seq > r.LastSeq:
		r.Anchor = "checked"
		r.problem(r.LastSeq, "the trail ends at seq %d but %s names seq %d: rows at the end were deleted or an older vault.db was put back (%s)", r.LastSeq, AnchorFileName, a.Seq, anchorAdvice)
	default:
		r.Anchor = "checked"
		// Rows are numbered from 1 without gaps unless walk found a problem.
		for _, e := range all {
			if e.Seq == a.Seq && e.Hash != a.Hash {
				r.problem(a.Seq, "its hash differs from the one %s recorded: the trail was rewritten from this row on (%s)", AnchorFileName, anchorAdvice)
			}
		}
	}
}
