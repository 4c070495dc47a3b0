package vault

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// Verification beside writers in other connections (as other processes
// would be) must never report a problem: it reads one snapshot.
func TestVerifyAudit_NoFalseAlarmsBesideWriters(t *testing.T) {
	s, home := openTemp(t)
	var wg sync.WaitGroup
	var done atomic.Int32
	for range 3 {
		other, err := Open(context.Background(), home, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer done.Add(1)
			appendN(t, other, 150)
		}()
	}
	runs, seen := 0, map[int]bool{}
	for done.Load() < 3 && runs < 200 {
		n, problems, err := s.VerifyAudit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(problems) != 0 {
			t.Errorf("run %d at %d rows: false alarm %v", runs, n, problems)
		}
		seen[n] = true
		runs++
	}
	wg.Wait()
	if len(seen) < 2 {
		t.Fatalf("verification never overlapped the writers (row counts seen: %v)", seen)
	}
}

func TestVerifyAudit_TruncatedWithHeadRewritten(t *testing.T) {
	s, _ := openTemp(t)
	appendN(t, s, 6)
	for _, q := range []string{
		`DELETE FROM audit WHERE seq > 3`,
		`UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	_, problems, err := s.VerifyAudit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) == 0 {
		t.Fatal("three rows cut from the end with the head rewritten: not detected")
	}
}

func TestVerifyAudit_OldCopyRestored(t *testing.T) {
	s, home := openTemp(t)
	appendN(t, s, 3)
	old := filepath.Join(t.TempDir(), "old.db")
	if _, err := s.db.Exec(`VACUUM INTO ?`, old); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, 3)
	s.Close()
	b, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(filepath.Join(home, FileName+suffix))
	}
	if err := os.WriteFile(filepath.Join(home, FileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Open(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, problems, err := r.VerifyAudit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) == 0 {
		t.Fatal("an older copy of vault.db put back: not detected")
	}
}
