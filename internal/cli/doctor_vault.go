package cli

import (
	"context"
	"fmt"

	"tai/internal/textsafe"
)

// doctorVault checks that the vault opens, that SQLite finds it sound,
// its seal, and the audit chain. ok is false when it did not open, so
// the checks that read it are not run.
func (a *App) doctorVault(ctx context.Context) (fs []finding, opened bool) {
	s, err := a.Store(ctx)
	if err != nil {
		return []finding{findFail("vault", "open", err.Error(), "")}, false
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		fs = append(fs, findFail("vault", "integrity", "SQLite finds damage: "+err.Error(), "restore vault.db from a backup"))
	} else {
		fs = append(fs, findOK("vault", "integrity", "SQLite quick_check passed"))
	}
	switch st, err := s.SealStatus(ctx); {
	case err != nil:
		fs = append(fs, findFail("vault", "seal", err.Error(), ""))
	case !st.Sealed && st.PlainValues > 0:
		fs = append(fs, findWarn("vault", "seal", fmt.Sprintf("not sealed: %d secret(s) in clear", st.PlainValues), "tai vault seal encrypts them at rest"))
	case !st.Sealed:
		fs = append(fs, findOK("vault", "seal", "not sealed, no secrets stored"))
	case st.Unlocked:
		fs = append(fs, findOK("vault", "seal", fmt.Sprintf("sealed, unlocked (%d value(s))", st.SealedValues)))
	case a.Getenv("TAI_VAULT_PASSPHRASE") != "":
		fs = append(fs, findOK("vault", "seal", fmt.Sprintf("sealed (%d value(s)), TAI_VAULT_PASSPHRASE set", st.SealedValues)))
	default:
		fs = append(fs, findOK("vault", "seal", fmt.Sprintf("sealed (%d value(s)); tai asks for the passphrase when it needs a secret", st.SealedValues)))
	}
	r, err := s.VerifyAudit(ctx)
	switch {
	case err != nil:
		fs = append(fs, findFail("vault", "audit", err.Error(), "tai audit verify says more"))
	case len(r.Problems) > 0:
		fs = append(fs, findFail("vault", "audit", fmt.Sprintf("%d problem(s), first: %s", len(r.Problems), textsafe.Line(r.Problems[0].String())),
			"tai audit verify names every row"))
	default:
		fs = append(fs, findOK("vault", "audit", "chain intact: "+auditSummary(r)))
	}
	return fs, true
}
