package vault

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tai/internal/seal"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	home := filepath.Join(tempDir(t), "home")
	s, err := Open(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, home
}

func TestOpen_CreatesPrivateHomeAndFile(t *testing.T) {
	_, home := openTemp(t)
	fi, err := os.Stat(home)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o700 {
		t.Errorf("home mode = %o, want 700", got)
	}
	fi, err = os.Stat(filepath.Join(home, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("vault mode = %o, want 600", got)
	}
}

// TestOpen_ManyAtOnceOnANewHome opens one new vault from several
// connections at once, as the first commands after installing tai may. The
// first connection turns the new file to WAL, which SQLite does by
// upgrading a read lock to a write lock: a second opener that holds a read
// lock meanwhile gets SQLITE_BUSY at once, without waiting out the busy
// timeout. Open has to wait for its turn, not report the vault busy.
func TestOpen_ManyAtOnceOnANewHome(t *testing.T) {
	const homes, openers = 20, 6
	for h := range homes {
		home := filepath.Join(tempDir(t), "home")
		var wg sync.WaitGroup
		errs := make([]error, openers)
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Open(context.Background(), home, Options{})
				if err == nil {
					err = s.SetSetting(context.Background(), DefaultProfile, "k"+strconv.Itoa(i), "v")
					s.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("home %d, opener %d: %v", h, i, err)
			}
		}
	}
}

func TestOpen_Reopen_KeepsData(t *testing.T) {
	ctx := context.Background()
	s, home := openTemp(t)
	if err := s.SetSetting(ctx, DefaultProfile, "model", "openai:gpt-4.1-mini"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := openWithPassphrase(t, home, "")
	v, ok, err := s2.Setting(ctx, DefaultProfile, "model")
	if err != nil || !ok || v != "openai:gpt-4.1-mini" {
		t.Fatalf("Setting = %q %v %v", v, ok, err)
	}
}

func TestOpen_BadFiles(t *testing.T) {
	ctx := context.Background()
	t.Run("not sqlite", func(t *testing.T) {
		home := t.TempDir()
		junk := []byte("this is a text file, not a database at all")
		os.WriteFile(filepath.Join(home, FileName), junk, 0o600)
		_, err := Open(ctx, home, Options{})
		if !errors.Is(err, ErrNotVault) {
			t.Fatalf("err = %v, want ErrNotVault", err)
		}
		got, _ := os.ReadFile(filepath.Join(home, FileName))
		if !bytes.Equal(got, junk) {
			t.Fatal("the foreign file was changed")
		}
	})
	t.Run("corrupt sqlite", func(t *testing.T) {
		s, home := openTemp(t)
		s.SetSetting(ctx, DefaultProfile, "k", "v")
		s.Close()
		path := filepath.Join(home, FileName)
		b, _ := os.ReadFile(path)
		for i := 100; i < len(b); i++ {
			b[i] = 0xA5
		}
		os.WriteFile(path, b, 0o600)
		os.Remove(path + "-wal")
		_, err := Open(ctx, home, Options{})
		if !errors.Is(err, ErrNotVault) {
			t.Fatalf("err = %v, want ErrNotVault", err)
		}
	})
	t.Run("newer schema", func(t *testing.T) {
		s, home := openTemp(t)
		if _, err := s.db.Exec("PRAGMA user_version = 999"); err != nil {
			t.Fatal(err)
		}
		s.Close()
		_, err := Open(ctx, home, Options{})
		if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "999") {
			t.Fatalf("err = %v, want ErrNewerSchema naming 999", err)
		}
	})
	t.Run("read-only home", func(t *testing.T) {
		s, home := openTemp(t)
		s.SetSetting(ctx, DefaultProfile, "k", "v")
		s.Close()
		makeReadOnly(t, home)
		_, err := Open(ctx, home, Options{})
		if !errors.Is(err, ErrReadOnly) {
			t.Fatalf("err = %v, want ErrReadOnly", err)
		}
	})
}

// makeReadOnly makes dir unwritable even for root (chattr +i), restoring
// it when the test ends.
func makeReadOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		os.Chmod(dir, 0o500)
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		return
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		// tmpfs and overlay file systems have no immutable flag, and root
		// writes through any mode bits: nothing here can make the home
		// read-only for this process.
		t.Skipf("root, and chattr +i fails on this file system (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
}

func TestProfiles(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if cur, _ := s.CurrentProfile(ctx); cur != DefaultProfile {
		t.Fatalf("current = %q", cur)
	}
	if err := s.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateProfile(ctx, "work"); err == nil {
		t.Fatal("duplicate profile accepted")
	}
	if err := s.CreateProfile(ctx, "bad name!"); err == nil {
		t.Fatal("bad name accepted")
	}
	if err := s.UseProfile(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "tai profile create") {
		t.Fatalf("UseProfile(nope) = %v", err)
	}
	if err := s.UseProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Profiles(ctx)
	if len(ps) != 2 || ps[0].Name != DefaultProfile || !ps[1].Current {
		t.Fatalf("profiles = %+v", ps)
	}
}

func TestSecrets_SetListDelete(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.SetSecret(ctx, DefaultProfile, "GITHUB_TOKEN", "ghp_abcdefgh", map[string]string{"note": "ci"}); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Secret(ctx, DefaultProfile, "GITHUB_TOKEN"); err != nil || v != "ghp_abcdefgh" {
		t.Fatalf("Secret = %q, %v", v, err)
	}
	list, _ := s.Secrets(ctx, DefaultProfile)
	if len(list) != 1 || list[0].Meta["note"] != "ci" || list[0].Sealed {
		t.Fatalf("list = %+v", list)
	}
	if err := s.SetSecret(ctx, DefaultProfile, "-bad", "x", nil); err == nil {
		t.Fatal("invalid name accepted")
	}
	if err := s.DeleteSecret(ctx, DefaultProfile, "GITHUB_TOKEN"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSecret(ctx, DefaultProfile, "GITHUB_TOKEN"); !IsNotFound(err) {
		t.Fatalf("second delete = %v", err)
	}
}

func TestClampSecretName(t *testing.T) {
	cases := []string{"ok-name", "mcp-oauth-my server-access", "", "-x", strings.Repeat("a", 300), "émoji🙂"}
	seen := map[string]string{}
	for _, in := range cases {
		out := ClampSecretName(in)
		if !SecretRE.MatchString(out) {
			t.Errorf("Clamp(%q) = %q does not match SECRET_RE", in, out)
		}
		if out != ClampSecretName(in) {
			t.Errorf("Clamp(%q) not deterministic", in)
		}
		if prev, dup := seen[out]; dup {
			t.Errorf("Clamp(%q) and Clamp(%q) collide", prev, in)
		}
		seen[out] = in
	}
	if ClampSecretName("ok-name") != "ok-name" {
		t.Error("valid name changed")
	}
	if ClampSecretName("a b") == ClampSecretName("a_b") {
		t.Error("distinct names clamp alike")
	}
}

func TestSeal_NoPlaintextOnDisk(t *testing.T) {
	ctx := context.Background()
	s, home := openTemp(t)
	const secret = "s3cr3t-value-123"
	for i, name := range []string{"A", "B", "C"} {
		if err := s.SetSecret(ctx, DefaultProfile, name, secret+strings.Repeat("x", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.Exec(`INSERT INTO mcp_servers(name, transport, headers_json, env_json, source, created, updated)
		VALUES ('gh', 'http', '{"Authorization":"Bearer s3cr3t-value-123"}', '{"TOKEN":"s3cr3t-value-123"}', 'explicit', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(ctx, []byte("P"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{FileName, FileName + "-wal"} {
		b, err := os.ReadFile(filepath.Join(home, f))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s contains the plaintext secret after sealing", f)
		}
	}
	s.Close()

	// Without the passphrase: names list, values refuse with a clear error.
	locked := openWithPassphrase(t, home, "")
	list, err := locked.Secrets(ctx, DefaultProfile)
	if err != nil || len(list) != 3 || !list[0].Sealed {
		t.Fatalf("locked list = %+v, %v", list, err)
	}
	if _, err := locked.Secret(ctx, DefaultProfile, "A"); !errors.Is(err, ErrSealed) {
		t.Fatalf("locked read = %v, want ErrSealed", err)
	}
	if err := locked.Unlock(ctx, []byte("wrong")); !errors.Is(err, ErrWrongPassphrase) {
		t.Fatalf("wrong passphrase = %v", err)
	}
	if err := locked.Unlock(ctx, nil); !errors.Is(err, ErrEmptyPassphrase) {
		t.Fatalf("empty passphrase = %v", err)
	}
	if err := locked.Unlock(ctx, []byte("P")); err != nil {
		t.Fatal(err)
	}
	if v, err := locked.Secret(ctx, DefaultProfile, "A"); err != nil || v != secret {
		t.Fatalf("unlocked read = %q, %v", v, err)
	}
	// A new secret written while sealed is never stored in clear.
	if err := locked.SetSecret(ctx, DefaultProfile, "D", "fresh-secret-456", nil); err != nil {
		t.Fatal(err)
	}
	locked.scrub(ctx)
	b, _ := os.ReadFile(filepath.Join(home, FileName))
	if bytes.Contains(b, []byte("fresh-secret-456")) {
		t.Error("secret set on a sealed vault stored in clear")
	}
}

func TestSeal_CiphertextMovedToAnotherRowFails(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	s.SetSecret(ctx, DefaultProfile, "A", "value-of-A", nil)
	s.SetSecret(ctx, DefaultProfile, "B", "value-of-B", nil)
	if err := s.Seal(ctx, []byte("P"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE secrets SET value = (SELECT value FROM secrets WHERE name = 'A') WHERE name = 'B'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Secret(ctx, DefaultProfile, "B"); err == nil || !strings.Contains(err.Error(), "moved") {
		t.Fatalf("moved ciphertext opened: %v", err)
	}
}

func TestSeal_UnsealRestoresPlain(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	s.SetSecret(ctx, DefaultProfile, "A", "value-of-A", nil)
	if err := s.Seal(ctx, []byte("P"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(ctx, []byte("P"), seal.CheapParams()); !errors.Is(err, ErrAlreadySealed) {
		t.Fatalf("second seal = %v", err)
	}
	if err := s.Unseal(ctx, []byte("nope")); !errors.Is(err, ErrWrongPassphrase) {
		t.Fatalf("unseal wrong = %v", err)
	}
	if err := s.Unseal(ctx, []byte("P")); err != nil {
		t.Fatal(err)
	}
	st, _ := s.SealStatus(ctx)
	if st.Sealed || st.SealedValues != 0 || st.PlainValues == 0 {
		t.Fatalf("status = %+v", st)
	}
	if v, _ := s.Secret(ctx, DefaultProfile, "A"); v != "value-of-A" {
		t.Fatalf("A = %q", v)
	}
}

func TestRedact(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	s.CreateProfile(ctx, "work")
	s.SetSecret(ctx, DefaultProfile, "TOKEN", "tok-1234567", nil)
	s.SetSecret(ctx, "work", "LONG", "tok-1234567-and-more", nil)
	s.SetSecret(ctx, DefaultProfile, "SHORT", "abc", nil)
	t.Setenv("TAI_MCP_KEY", "served-key-999")
	s.AddKnown("API_KEY", "subst-value-42")
	in := "a tok-1234567 b tok-1234567-and-more c abc d served-key-999 e subst-value-42"
	want := "a [secret:TOKEN] b [secret:LONG] c abc d [secret:TAI_MCP_KEY] e [secret:API_KEY]"
	if got := s.Redact(in); got != want {
		t.Fatalf("Redact =\n %q\nwant\n %q", got, want)
	}
	// A secret added later (by any process) is picked up.
	s.SetSecret(ctx, DefaultProfile, "LATER", "later-secret", nil)
	if got := s.Redact("x later-secret"); got != "x [secret:LATER]" {
		t.Fatalf("after add: %q", got)
	}
}

func TestRecords(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	id, err := s.PutRecord(ctx, DefaultProfile, "spill", "big body")
	if err != nil || !strings.HasPrefix(id, "r") || len(id) != 8 {
		t.Fatalf("PutRecord = %q, %v", id, err)
	}
	r, err := s.Record(ctx, id)
	if err != nil || r.Body != "big body" || r.Size != 8 || r.Kind != "spill" {
		t.Fatalf("Record = %+v, %v", r, err)
	}
	list, _ := s.Records(ctx, RecordQuery{Text: "BIG"})
	if len(list) != 1 || list[0].ID != id {
		t.Fatalf("Records = %+v", list)
	}
	if _, err := s.Record(ctx, "rnope"); !IsNotFound(err) {
		t.Fatalf("missing = %v", err)
	}
}
