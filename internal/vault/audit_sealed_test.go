package vault

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/seal"
)

// sealedTrail returns a vault with rows 1–3 plain, row 4 the seal's own
// keyed row, and rows 5–7 keyed.
func sealedTrail(t *testing.T) (*Store, string) {
	t.Helper()
	s, home := openTemp(t)
	appendN(t, s, 3)
	if err := s.Seal(context.Background(), []byte("pw"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, 3)
	return s, home
}

func openWithPassphrase(t *testing.T, home, pass string) *Store {
	t.Helper()
	opts := Options{}
	if pass != "" {
		opts.Passphrase = func() ([]byte, error) { return []byte(pass), nil }
	}
	s, err := Open(context.Background(), home, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// forgeAnchor rewrites audit.anchor to name the trail's last row as it now
// stands: what someone who can write the whole home can do.
func forgeAnchor(t *testing.T, s *Store, home string) {
	t.Helper()
	all, err := s.AuditEntries(context.Background(), AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	last := all[len(all)-1]
	b, _ := json.Marshal(auditAnchor{Seq: last.Seq, Hash: last.Hash})
	if err := os.WriteFile(filepath.Join(home, AnchorFileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyAudit_SealedTrailIsKeyed(t *testing.T) {
	s, home := sealedTrail(t)
	all, _ := s.AuditEntries(context.Background(), AuditQuery{})
	if all[3].Kind != "vault-seal" || all[3].KeyID == "" || all[2].KeyID != "" || all[6].KeyID != all[3].KeyID {
		t.Fatalf("rows = %+v", all)
	}
	for _, c := range []struct {
		name    string
		s       *Store
		checked int
		locked  bool
	}{
		{"the sealing process", s, 4, false},
		{"another with the passphrase", openWithPassphrase(t, home, "pw"), 4, false},
		{"another without it", openWithPassphrase(t, home, ""), 0, true},
	} {
		r := verify(t, c.s)
		if len(r.Problems) != 0 || r.Rows != 7 || r.KeyedChecked != c.checked || r.Locked != c.locked ||
			r.KeyedChecked+r.KeyedUnchecked != 4 || r.Anchor != "checked" {
			t.Errorf("%s: report = %+v", c.name, r)
		}
		if !c.locked && r.KeyedFrom != 4 {
			t.Errorf("%s: keyed from %d, want 4", c.name, r.KeyedFrom)
		}
	}
	if _, err := openWithPassphrase(t, home, "wrong").VerifyAudit(context.Background()); err != ErrWrongPassphrase {
		t.Fatalf("wrong passphrase: %v", err)
	}
}

// Someone who can rewrite vault.db and audit.anchor but has no passphrase
// recomputes a consistent plain chain: on a sealed vault that shows.
func TestVerifyAudit_SealedForgeryWithBothFilesDetected(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(t *testing.T, s *Store)
		want   string
	}{
		{"keyed row edited, plain chain recomputed", func(t *testing.T, s *Store) {
			mustExec(t, s, `UPDATE audit SET outcome = 'denied' WHERE seq = 6`)
			rechainPlain(t, s, 6)
		}, "seq 6: a plain row where the sealed vault's trail is keyed"},
		{"keyed row edited, key id kept", func(t *testing.T, s *Store) {
			mustExec(t, s, `UPDATE audit SET outcome = 'denied' WHERE seq = 7`)
			all, _ := s.AuditEntries(context.Background(), AuditQuery{})
			h := hashOf(all[6])
			mustExec(t, s, `UPDATE audit SET hash = '`+h+`' WHERE seq = 7`, `UPDATE audit_head SET hash = '`+h+`'`)
		}, "seq 7: its keyed hash does not match"},
		{"the whole keyed trail made plain", func(t *testing.T, s *Store) {
			rechainPlain(t, s, 4)
		}, "seq 4: a plain row where the sealed vault's trail is keyed"},
		{"cut back to before the seal", func(t *testing.T, s *Store) {
			mustExec(t, s, `DELETE FROM audit WHERE seq > 3`,
				`UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)`)
		}, "seq 3: the seal says the keyed trail begins at seq 4 but the trail ends here"},
		{"last keyed rows cut, plain ones appended", func(t *testing.T, s *Store) {
			mustExec(t, s, `DELETE FROM audit WHERE seq > 5`,
				`UPDATE audit_head SET seq = 5, hash = (SELECT hash FROM audit WHERE seq = 5)`)
			plain := openWithPassphrase(t, filepath.Dir(s.Path()), "")
			appendN(t, plain, 1)
		}, "seq 6: a plain row where the sealed vault's trail is keyed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, home := sealedTrail(t)
			c.tamper(t, s)
			forgeAnchor(t, s, home)
			r := verify(t, s)
			if !strings.Contains(problemText(r), c.want) {
				t.Fatalf("problems = %q, want %q", problemText(r), c.want)
			}
		})
	}
}

func TestAudit_SealedAppendAsksForThePassphraseOnce(t *testing.T) {
	_, home := sealedTrail(t)
	asked := 0
	s, err := Open(context.Background(), home, Options{Passphrase: func() ([]byte, error) {
		asked++
		return nil, ErrSealed
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	appendN(t, s, 2)
	if asked != 1 {
		t.Fatalf("asked %d times for the passphrase, want once", asked)
	}
	all, _ := s.AuditEntries(context.Background(), AuditQuery{})
	if all[7].KeyID != "" {
		t.Fatalf("row written without the passphrase is keyed: %+v", all[7])
	}
	r := verify(t, openWithPassphrase(t, home, "pw"))
	if want := "seq 8: a plain row where the sealed vault's trail is keyed"; !strings.Contains(problemText(r), want) {
		t.Fatalf("problems = %q, want %q", problemText(r), want)
	}

	// A process given the passphrase keys its rows without having opened
	// any sealed value first.
	_, home = sealedTrail(t)
	given := openWithPassphrase(t, home, "pw")
	appendN(t, given, 1)
	all, _ = given.AuditEntries(context.Background(), AuditQuery{})
	if all[7].KeyID != all[3].KeyID {
		t.Fatalf("row of a process given the passphrase: %+v", all[7])
	}
}

// Rows keyed under a seal that was later removed, or replaced by another
// passphrase's, are checked for their links and reported as such.
func TestVerifyAudit_UnsealAndSealAgain(t *testing.T) {
	s, _ := sealedTrail(t)
	ctx := context.Background()
	if err := s.Unseal(ctx, []byte("pw")); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, 1)
	r := verify(t, s)
	// rows 4–8 keyed (8 is the unsealing), 9 plain
	if len(r.Problems) != 0 || r.Rows != 9 || r.KeyedUnchecked != 5 || r.Sealed {
		t.Fatalf("after unseal: %+v", r)
	}
	if err := s.Seal(ctx, []byte("other"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, 1)
	r = verify(t, s)
	if len(r.Problems) != 0 || r.Rows != 11 || r.KeyedFrom != 10 || r.KeyedChecked != 2 || r.KeyedUnchecked != 5 {
		t.Fatalf("sealed again: %+v\n%s", r, problemText(r))
	}
}

// A vault sealed by a tai that did not key the trail has plain rows after
// its seal; keying begins at the first row appended with the passphrase,
// and the seal check records it from then on.
func TestVerifyAudit_SealedBeforeKeyingExisted(t *testing.T) {
	s, home := sealedTrail(t)
	ctx := context.Background()
	// Turn the vault into what an earlier tai left: the seal check
	// without a keyed-from row, every row plain.
	if err := writeSealCheck(ctx, s.db, s.key, 0); err != nil {
		t.Fatal(err)
	}
	rechainPlain(t, s, 4)
	forgeAnchor(t, s, home)
	if r := verify(t, s); len(r.Problems) != 0 || r.KeyedFrom != 0 || r.KeyedChecked != 0 {
		t.Fatalf("before keying: %+v\n%s", r, problemText(r))
	}
	appendN(t, s, 1)
	if r := verify(t, s); len(r.Problems) != 0 || r.KeyedFrom != 8 || r.KeyedChecked != 1 {
		t.Fatalf("after the first keyed row: %+v\n%s", r, problemText(r))
	}
	mustExec(t, s, `DELETE FROM audit WHERE seq = 8`, `UPDATE audit_head SET seq = 7, hash = (SELECT hash FROM audit WHERE seq = 7)`)
	forgeAnchor(t, s, home)
	if r := verify(t, s); !strings.Contains(problemText(r), "keyed trail begins at seq 8 but the trail ends here") {
		t.Fatalf("cut back before keying began: %q", problemText(r))
	}
}
