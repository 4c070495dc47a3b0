package cli

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tai/internal/vault"
)

// runAuditTai runs tai on home with extra environment and returns its output
// and exit code.
func runAuditTai(t *testing.T, home string, env []string, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := taiCmd(home, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// tamper runs SQL on home's vault.db directly, as a tool that only touches
// the database would.
func tamper(t *testing.T, home string, queries ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, vault.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range queries {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// rechainPlain recomputes every plain link from seq from on, the head and
// the anchor: all that someone who can write the home but holds no
// passphrase can do.
func rechainPlain(t *testing.T, home string, from int) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, vault.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT seq, ts, profile, kind, subject, digest, outcome, duration_ms, size, hash FROM audit ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		fields []any
		hash   string
	}
	var all []row
	for rows.Next() {
		var seq, ts, dur, size int64
		var profile, kind, subject, digest, outcome, hash string
		if err := rows.Scan(&seq, &ts, &profile, &kind, &subject, &digest, &outcome, &dur, &size, &hash); err != nil {
			t.Fatal(err)
		}
		all = append(all, row{[]any{seq, ts, profile, kind, subject, digest, outcome, dur, size}, hash})
	}
	rows.Close()
	prev := strings.Repeat("0", 64)
	var last int64
	for _, r := range all {
		last = r.fields[0].(int64)
		if last >= int64(from) {
			b, _ := json.Marshal(append(r.fields, prev))
			sum := sha256.Sum256(b)
			r.hash = hex.EncodeToString(sum[:])
			if _, err := db.Exec(`UPDATE audit SET prev_hash = ?, hash = ?, key_id = '' WHERE seq = ?`, prev, r.hash, last); err != nil {
				t.Fatal(err)
			}
		}
		prev = r.hash
	}
	if _, err := db.Exec(`UPDATE audit_head SET seq = ?, hash = ?`, last, prev); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"seq": last, "hash": prev})
	if err := os.WriteFile(filepath.Join(home, vault.AnchorFileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func appendRows(t *testing.T, home, n string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "TAI_TEST_ROLE=audit-appender", "TAI_TEST_ROWS="+n, "TAI_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

func TestAuditVerify_ThroughTheBinary(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	appendRows(t, home, "6")
	out, code := runAuditTai(t, home, nil, "", "audit", "verify")
	if code != 0 || out != "audit trail intact: 6 rows up to seq 6, anchor checked, not keyed (the vault is not sealed)\n" {
		t.Fatalf("intact trail: exit %d\n%s", code, out)
	}

	// The last three rows deleted and the head rewritten to match.
	tamper(t, home, `DELETE FROM audit WHERE seq > 3`,
		`UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)`)
	out, code = runAuditTai(t, home, nil, "", "audit", "verify")
	if code != 1 || !strings.Contains(out, "seq 3: the trail ends at seq 3 but audit.anchor names seq 6: rows at the end were deleted or an older vault.db was put back (if you restored vault.db yourself or a crash lost its last writes, run `tai audit reanchor` to accept the trail as it is)\n") ||
		!strings.Contains(out, "tai: audit trail damaged: 1 problem(s) in 3 rows") {
		t.Fatalf("cut trail: exit %d\n%s", code, out)
	}

	// The person accepts the cut, as told; the acceptance is on the trail.
	out, code = runAuditTai(t, home, nil, "", "audit", "reanchor")
	if code != 0 || !regexp.MustCompile(`^audit trail anchored at seq 4 \(anchor was seq 6 hash [0-9a-f]{64}\)\n$`).MatchString(out) {
		t.Fatalf("reanchor: exit %d\n%s", code, out)
	}
	if out, code = runAuditTai(t, home, nil, "", "audit", "verify"); code != 0 || !strings.Contains(out, "intact: 4 rows up to seq 4, anchor checked") {
		t.Fatalf("after reanchoring: exit %d\n%s", code, out)
	}
	if out, _ = runAuditTai(t, home, nil, "", "audit", "--kind", "audit-reanchor"); !strings.Contains(out, "anchor was seq 6") {
		t.Fatalf("the acceptance is not on the trail:\n%s", out)
	}
}

func TestAuditVerify_SealedTrailThroughTheBinary(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	appendRows(t, home, "2")
	if out, code := runAuditTai(t, home, nil, "", "vault", "seal"); code != 0 {
		t.Fatalf("seal: exit %d\n%s", code, out)
	}
	if out, code := runAuditTai(t, home, nil, "value-long-enough", "secret", "set", "TOKEN"); code != 0 {
		t.Fatalf("secret set: exit %d\n%s", code, out)
	}
	// rows 1–2 plain, 3 the seal, 4 the secret
	out, code := runAuditTai(t, home, nil, "", "audit", "verify")
	if code != 0 || out != "audit trail intact: 4 rows up to seq 4, anchor checked, 2 keyed rows checked (keyed from seq 3)\n" {
		t.Fatalf("sealed trail: exit %d\n%s", code, out)
	}
	out, code = runAuditTai(t, home, []string{"TAI_VAULT_PASSPHRASE="}, "", "audit", "verify")
	if code != 0 || !regexp.MustCompile(`intact: 4 rows .* 2 keyed rows checked for links only \(the vault is locked: set TAI_VAULT_PASSPHRASE`).MatchString(out) {
		t.Fatalf("locked: exit %d\n%s", code, out)
	}
	out, code = runAuditTai(t, home, []string{"TAI_VAULT_PASSPHRASE=wrong"}, "", "audit", "verify")
	if code != 1 || !strings.HasPrefix(out, "tai: wrong vault passphrase") {
		t.Fatalf("wrong passphrase: exit %d\n%s", code, out)
	}

	// The secret's row edited and the plain chain, head and anchor
	// recomputed: consistent, but not keyed.
	tamper(t, home, `UPDATE audit SET subject = 'OTHER' WHERE seq = 4`)
	rechainPlain(t, home, 4)
	out, code = runAuditTai(t, home, nil, "", "audit", "verify")
	if code != 1 || !strings.Contains(out, "seq 4: a plain row where the sealed vault's trail is keyed: it was forged or rewritten without the passphrase") {
		t.Fatalf("recomputed plain chain: exit %d\n%s", code, out)
	}
}
