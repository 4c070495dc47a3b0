package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func appendN(t *testing.T, s *Store, n int) {
	t.Helper()
	for i := range n {
		if err := s.Audit(context.Background(), AuditEntry{Profile: DefaultProfile, Kind: "mcp-call",
			Subject: fmt.Sprintf("srv/tool%d", i), Digest: Digest([]byte{byte(i)}), Outcome: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
}

func verify(t *testing.T, s *Store) AuditReport {
	t.Helper()
	r, err := s.VerifyAudit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func problemText(r AuditReport) string {
	var all []string
	for _, p := range r.Problems {
		all = append(all, p.String())
	}
	return strings.Join(all, "\n")
}

func mustExec(t *testing.T, s *Store, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestVerifyAudit_DetectsTampering(t *testing.T) {
	cases := []struct {
		name   string
		tamper []string
		want   string
	}{
		{"untouched", nil, ""},
		{"edited row", []string{`UPDATE audit SET outcome = 'error' WHERE seq = 3`}, "seq 3: its contents do not match"},
		{"deleted middle row", []string{`DELETE FROM audit WHERE seq = 3`}, "seq 4: expected seq 3"},
		{"deleted last row", []string{`DELETE FROM audit WHERE seq = 5`}, "trail ends at seq 4"},
		{"inserted row", []string{`INSERT INTO audit SELECT 6, ts, profile, kind, subject, digest, outcome, duration_ms, size, hash, hash, key_id, origin FROM audit WHERE seq = 5`}, "trail ends at seq 6"},
		{"edited row with rehash", []string{`UPDATE audit SET outcome = 'x', hash = 'feed' WHERE seq = 2`}, "seq 3: does not follow"},
		{"last rows deleted, head rewritten", []string{
			`DELETE FROM audit WHERE seq > 3`,
			`UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)`,
		}, "seq 3: the trail ends at seq 3 but audit.anchor names seq 5: rows at the end were deleted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := openTemp(t)
			appendN(t, s, 5)
			mustExec(t, s, c.tamper...)
			r := verify(t, s)
			joined := problemText(r)
			if c.want == "" && len(r.Problems) != 0 {
				t.Fatalf("untouched trail reported: %s", joined)
			}
			if c.want != "" && !strings.Contains(joined, c.want) {
				t.Fatalf("problems = %q, want one containing %q", joined, c.want)
			}
		})
	}
}

// A whole tail rewritten with plain hashes recomputed, head included, is
// caught by the anchor at the row it recorded.
func TestVerifyAudit_TailRecomputedDisagreesWithAnchor(t *testing.T) {
	s, _ := openTemp(t)
	appendN(t, s, 5)
	mustExec(t, s, `UPDATE audit SET outcome = 'denied' WHERE seq = 4`)
	rechainPlain(t, s, 4)
	r := verify(t, s)
	if want := "seq 5: its hash differs from the one audit.anchor recorded"; !strings.Contains(problemText(r), want) {
		t.Fatalf("problems = %q, want %q", problemText(r), want)
	}
}

// rechainPlain recomputes every row's plain hash from seq from on, and the
// head: what someone who can write vault.db, but holds no key, can do.
func rechainPlain(t *testing.T, s *Store, from int64) {
	t.Helper()
	all, err := s.AuditEntries(context.Background(), AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	prev := genesis
	for _, e := range all {
		if e.Seq >= from {
			e.PrevHash, e.KeyID = prev, ""
			e.Hash = hashOf(e)
			if _, err := s.db.Exec(`UPDATE audit SET prev_hash = ?, hash = ?, key_id = '' WHERE seq = ?`, e.PrevHash, e.Hash, e.Seq); err != nil {
				t.Fatal(err)
			}
		}
		prev = e.Hash
	}
	mustExec(t, s, fmt.Sprintf(`UPDATE audit_head SET seq = %d, hash = '%s'`, all[len(all)-1].Seq, prev))
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
	r := verify(t, putBack(t, home, old))
	if want := "the trail ends at seq 3 but audit.anchor names seq 6: rows at the end were deleted or an older vault.db was put back"; !strings.Contains(problemText(r), want) {
		t.Fatalf("problems = %q, want %q", problemText(r), want)
	}
}

// putBack replaces home's vault.db with the file at from and opens it.
func putBack(t *testing.T, home, from string) *Store {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(filepath.Join(home, FileName+suffix))
	}
	if err := os.WriteFile(filepath.Join(home, FileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestVerifyAudit_Anchor(t *testing.T) {
	t.Run("written private beside the vault", func(t *testing.T) {
		s, home := openTemp(t)
		if r := verify(t, s); r.Anchor != "none yet" || len(r.Problems) != 0 {
			t.Fatalf("empty trail: %+v", r)
		}
		appendN(t, s, 2)
		fi, err := os.Stat(filepath.Join(home, AnchorFileName))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("anchor: %v, %v", fi, err)
		}
		if r := verify(t, s); r.Anchor != "checked" || r.Rows != 2 || r.LastSeq != 2 || len(r.Problems) != 0 {
			t.Fatalf("report = %+v", r)
		}
	})
	t.Run("deleted", func(t *testing.T) {
		s, home := openTemp(t)
		appendN(t, s, 2)
		os.Remove(filepath.Join(home, AnchorFileName))
		if r := verify(t, s); !strings.Contains(problemText(r), "audit.anchor is missing though rows were anchored") {
			t.Fatalf("problems = %q", problemText(r))
		}
	})
	t.Run("garbled", func(t *testing.T) {
		s, home := openTemp(t)
		appendN(t, s, 2)
		os.WriteFile(filepath.Join(home, AnchorFileName), []byte("{"), 0o600)
		if r := verify(t, s); r.Anchor != "unreadable" || !strings.Contains(problemText(r), "is not an audit anchor") {
			t.Fatalf("report = %+v", r)
		}
	})
	t.Run("reanchored after a cut, edits still show", func(t *testing.T) {
		s, _ := openTemp(t)
		appendN(t, s, 5)
		mustExec(t, s, `DELETE FROM audit WHERE seq > 3`,
			`UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)`,
			`UPDATE audit SET outcome = 'denied' WHERE seq = 2`)
		row, err := s.ReanchorAudit(context.Background(), DefaultProfile)
		if err != nil || row.Seq != 4 || !strings.HasPrefix(row.Subject, "anchor was seq 5 hash ") {
			t.Fatalf("reanchor = %+v, %v", row, err)
		}
		r := verify(t, s)
		if len(r.Problems) != 1 || r.Problems[0].Seq != 2 || r.Anchor != "checked" {
			t.Fatalf("report = %+v", r)
		}
	})
	t.Run("never moves backwards", func(t *testing.T) {
		s, home := openTemp(t)
		appendN(t, s, 3)
		path := filepath.Join(home, AnchorFileName)
		if err := writeAnchor(path, auditAnchor{Seq: 1, Hash: "old"}); err != nil {
			t.Fatal(err)
		}
		a, err := readAnchor(path)
		if err != nil || a.Seq != 3 {
			t.Fatalf("anchor after a late writer = %+v, %v", a, err)
		}
	})
}

// Several Stores on one file are separate SQLite connections, as separate
// processes would be; appends must still form one chain.
func TestAudit_ConcurrentWritersKeepOneChain(t *testing.T) {
	s, home := openTemp(t)
	appendersOn(t, home, 4, 50, nil, nil).Wait()
	r := verify(t, s)
	if r.Rows != 200 || len(r.Problems) != 0 || r.Anchor != "checked" {
		t.Fatalf("report = %+v", r)
	}
}

// Verification beside writers in other connections (as other processes
// would be) must never report a problem: it reads one snapshot, and the
// anchor before it.
func TestVerifyAudit_NoFalseAlarmsBesideWriters(t *testing.T) {
	s, home := openTemp(t)
	var done atomic.Int32
	p := newPace()
	wg := appendersOn(t, home, 3, 150, &done, p)
	runs, seen := 0, map[int]bool{}
	for done.Load() < 3 { // the writers wait for these, so each ends
		r := verify(t, s)
		if len(r.Problems) != 0 {
			t.Errorf("run %d at %d rows: false alarm %s", runs, r.Rows, problemText(r))
		}
		seen[r.Rows] = true
		runs++
		p.verified()
	}
	p.stop()
	wg.Wait()
	if len(seen) < 2 {
		t.Fatalf("verification never overlapped the writers (row counts seen: %v)", seen)
	}
	if r := verify(t, s); r.Rows != 450 || len(r.Problems) != 0 {
		t.Fatalf("final report = %+v", r)
	}
}

// pace makes writers wait, every paceRows rows, for a verification to end,
// so that verifications fall among the writes however the machine
// schedules them.
type pace struct {
	mu      sync.Mutex
	next    chan struct{} // closed when the next verification ends
	stopped bool
}

const paceRows = 25

func newPace() *pace { return &pace{next: make(chan struct{})} }

func (p *pace) wait() {
	p.mu.Lock()
	next := p.next
	p.mu.Unlock()
	<-next
}

func (p *pace) verified() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		close(p.next)
		p.next = make(chan struct{})
	}
}

// stop lets every writer go on without waiting.
func (p *pace) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		close(p.next)
	}
}

// appendersOn starts n writers, each on a Store of its own over home, that
// append rows each, and counts each that ends in done (when not nil); with
// a pace, each waits for a verification every paceRows rows.
func appendersOn(t *testing.T, home string, n, rows int, done *atomic.Int32, p *pace) *sync.WaitGroup {
	var wg sync.WaitGroup
	for range n {
		other, err := Open(context.Background(), home, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			if done != nil {
				defer done.Add(1)
			}
			for left := rows; left > 0; left -= paceRows {
				if p == nil {
					appendN(t, other, left)
					break
				}
				appendN(t, other, min(left, paceRows))
				p.wait()
			}
		}()
	}
	return &wg
}

func TestAuditEntries_Filters(t *testing.T) {
	s, _ := openTemp(t)
	appendN(t, s, 3)
	s.Audit(context.Background(), AuditEntry{Profile: DefaultProfile, Kind: "secret-set", Subject: "TOKEN", Outcome: "ok"})
	got, _ := s.AuditEntries(context.Background(), AuditQuery{Kind: "mcp-call", Subject: "tool1"})
	if len(got) != 1 || got[0].Subject != "srv/tool1" {
		t.Fatalf("filtered = %+v", got)
	}
	got, _ = s.AuditEntries(context.Background(), AuditQuery{Limit: 2})
	if len(got) != 2 || got[1].Kind != "secret-set" {
		t.Fatalf("limited = %+v", got)
	}
}

// A row's origin is covered by its hash: a call's door cannot be changed
// afterwards, and rows written before the column still verify.
func TestVerifyAudit_OriginIsChained(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Audit(ctx, AuditEntry{Profile: DefaultProfile, Kind: KindTool, Subject: "old", Outcome: OutcomeOK}); err != nil {
		t.Fatal(err)
	}
	if err := s.Audit(ctx, AuditEntry{Profile: DefaultProfile, Kind: KindTool, Subject: "x", Outcome: OutcomeOK, Origin: OriginAgent}); err != nil {
		t.Fatal(err)
	}
	if r := verify(t, s); len(r.Problems) != 0 {
		t.Fatalf("untouched trail reported: %s", problemText(r))
	}
	mustExec(t, s, `UPDATE audit SET origin = 'cli' WHERE seq = 2`)
	if r := verify(t, s); !strings.Contains(problemText(r), "seq 2") {
		t.Fatalf("a changed origin is not reported: %s", problemText(r))
	}
}
