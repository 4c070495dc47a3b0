package vault

import (
	"context"
	"fmt"
	"strings"
	"sync"
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

func TestVerifyAudit_DetectsTampering(t *testing.T) {
	cases := []struct {
		name   string
		tamper string
		want   string
	}{
		{"untouched", ``, ""},
		{"edited row", `UPDATE audit SET outcome = 'error' WHERE seq = 3`, "seq 3: its contents do not match"},
		{"deleted middle row", `DELETE FROM audit WHERE seq = 3`, "seq 4: expected seq 3"},
		{"deleted last row", `DELETE FROM audit WHERE seq = 5`, "trail ends at seq 4"},
		{"inserted row", `INSERT INTO audit SELECT 6, ts, profile, kind, subject, digest, outcome, duration_ms, size, hash, hash FROM audit WHERE seq = 5`, "trail ends at seq 6"},
		{"edited row with rehash", `UPDATE audit SET outcome = 'x', hash = 'feed' WHERE seq = 2`, "seq 3: does not follow"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := openTemp(t)
			appendN(t, s, 5)
			if c.tamper != "" {
				if _, err := s.db.Exec(c.tamper); err != nil {
					t.Fatal(err)
				}
			}
			_, problems, err := s.VerifyAudit(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, p := range problems {
				all = append(all, p.String())
			}
			joined := strings.Join(all, "\n")
			if c.want == "" && len(problems) != 0 {
				t.Fatalf("untouched trail reported: %s", joined)
			}
			if c.want != "" && !strings.Contains(joined, c.want) {
				t.Fatalf("problems = %q, want one containing %q", joined, c.want)
			}
		})
	}
}

// Several Stores on one file are separate SQLite connections, as separate
// processes would be; appends must still form one chain.
func TestAudit_ConcurrentWritersKeepOneChain(t *testing.T) {
	s, home := openTemp(t)
	var wg sync.WaitGroup
	for range 4 {
		other, err := Open(context.Background(), home, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			appendN(t, other, 50)
		}()
	}
	wg.Wait()
	n, problems, err := s.VerifyAudit(context.Background())
	if err != nil || n != 200 || len(problems) != 0 {
		t.Fatalf("rows = %d, problems = %v, err = %v", n, problems, err)
	}
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
