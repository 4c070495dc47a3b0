package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tai/internal/llm/llmtest"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// taiCmd runs the test binary as tai with home as its vault.
func taiCmd(home string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TAI_HOME="+home, "TAI_SEAL_KDF=test", "TAI_VAULT_PASSPHRASE=pw")
	// testscript.Main runs the "tai" entry when argv[0]'s base name is tai.
	cmd.Path = os.Args[0]
	cmd.Args = append([]string{"tai"}, args...)
	return cmd
}

func secretValue(i int) string { return fmt.Sprintf("value-%03d-%s", i, strings.Repeat("v", 40)) }

func TestSealKilled_VaultStaysWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 40 processes")
	}
	ctx := context.Background()
	const secrets = 300
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)

	template := prepareVault(t, secrets)
	// Measure how long an uninterrupted seal takes (best of three), to aim
	// the kills inside it.
	span := time.Hour
	for range 3 {
		home := copyVault(t, template)
		start := time.Now()
		if out, err := taiCmd(home, "vault", "seal").CombinedOutput(); err != nil {
			t.Fatalf("seal: %v\n%s", err, out)
		}
		span = min(span, time.Since(start))
	}

	outcomes := map[string]int{}
	for run := range 20 {
		home := copyVault(t, template)
		cmd := taiCmd(home, "vault", "seal")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(rng.Int64N(int64(span) * 3 / 2))
		timer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
		cmd.Wait()
		timer.Stop()

		s, err := vault.Open(ctx, home, vault.Options{Passphrase: func() ([]byte, error) { return []byte("pw"), nil }})
		if err != nil {
			t.Fatalf("run %d (kill after %v): vault does not open: %v", run, delay, err)
		}
		st, err := s.SealStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		state := "plain"
		if st.Sealed {
			state = "sealed"
		}
		outcomes[state]++
		if st.Sealed && st.PlainValues != 0 || !st.Sealed && st.SealedValues != 0 {
			t.Fatalf("run %d: a mix of sealed and plain values: %+v", run, st)
		}
		for i := range secrets {
			v, err := s.Secret(ctx, vault.DefaultProfile, fmt.Sprintf("S%03d", i))
			if err != nil || v != secretValue(i) {
				t.Fatalf("run %d (%s): secret %d = %q, %v", run, state, i, v, err)
			}
		}
		s.Close()
	}
	t.Logf("outcomes over 20 kills: %v (uninterrupted seal took %v)", outcomes, span)
}

// openVault opens a new vault in a temporary tai home.
func openVault(t *testing.T) (*vault.Store, string) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	s, err := vault.Open(context.Background(), home, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s, home
}

func prepareVault(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	s, home := openVault(t)
	defer s.Close()
	for i := range n {
		if err := s.SetSecret(ctx, vault.DefaultProfile, fmt.Sprintf("S%03d", i), secretValue(i), nil); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func copyVault(t *testing.T, from string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(from, vault.FileName))
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	os.MkdirAll(home, 0o700)
	if err := os.WriteFile(filepath.Join(home, vault.FileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// appenders starts n test binaries in the audit-appender role on home,
// with env added; the function it returns waits for them and fails t on
// any failure.
func appenders(t *testing.T, home string, n int, env ...string) func() {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(append(os.Environ(), "TAI_TEST_ROLE=audit-appender", "TAI_HOME="+home), env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	return func() {
		t.Helper()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

func TestAudit_FourProcessesOneChain(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	appenders(t, home, 4, "TAI_TEST_ROWS=200")()
	out, err := taiCmd(home, "audit", "verify").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "intact: 800 rows") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
}

func TestTwoProcessesWriteAtOnce(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if out, err := taiCmd(home, "profile", "list").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	const rounds = 10
	for round := range rounds {
		var wg sync.WaitGroup
		outs := make([]string, 2)
		errs := make([]error, 2)
		for p := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := taiCmd(home, "secret", "set", fmt.Sprintf("P%d_R%d", p, round))
				cmd.Stdin = strings.NewReader("value-long-enough")
				b, err := cmd.CombinedOutput()
				outs[p], errs[p] = string(b), err
			}()
		}
		wg.Wait()
		for p := range 2 {
			if errs[p] != nil || strings.Contains(outs[p], "locked") {
				t.Fatalf("round %d process %d: %v\n%s", round, p, errs[p], outs[p])
			}
		}
	}
	out, _ := taiCmd(home, "secret", "list").CombinedOutput()
	if n := strings.Count(string(out), "_R"); n != 2*rounds {
		t.Fatalf("want %d secrets listed, got %d:\n%s", 2*rounds, n, out)
	}
	out, err := taiCmd(home, "audit", "verify").CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("intact: %d rows", 2*rounds)) {
		t.Fatalf("verify: %v\n%s", err, out)
	}
}

// With 32 servers of 100 cached tools registered and enabled, `tai mcp
// list`, `tai tools list` and an agent's first step start no server: each
// server's command would leave a marker file if it ever ran.
func TestMCP_ListingAndFirstStepSpawnNothing(t *testing.T) {
	ctx := context.Background()
	home := filepath.Join(t.TempDir(), "home")
	markers := t.TempDir()
	spawn := filepath.Join(t.TempDir(), "server.sh")
	os.WriteFile(spawn, []byte("#!/bin/sh\ntouch "+markers+"/\"$1\"\nexec sleep 30\n"), 0o755)
	s, err := vault.Open(ctx, home, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 32 {
		name := fmt.Sprintf("srv%02d", i)
		var listed []wire.Tool
		for j := range 100 {
			listed = append(listed, wire.Tool{Name: fmt.Sprintf("tool_%03d", j), Description: "does a thing"})
		}
		reg := bridge.Registration(vault.MCPServer{Name: name, Transport: "stdio", Command: spawn, Args: []string{name}, Source: "explicit",
			ConsentedHash: "set"}, listed)
		reg.Enable = []string{vault.DefaultProfile}
		if err := s.RegisterMCPServer(ctx, reg); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	out, err := taiCmd(home, "mcp", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "srv31") || !strings.Contains(string(out), "100") {
		t.Fatalf("mcp list: %v\n%s", err, out)
	}
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"no tools needed"}}}})
	cmd := taiCmd(home, "-p", "hello")
	cmd.Env = append(cmd.Env, "TAI_BASE_URL="+srv.URL+"/v1", "TAI_MODEL=openai:fake", "OPENAI_API_KEY="+llmtest.Key)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "no tools needed") {
		t.Fatalf("one-shot: %v\n%s", err, out)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("model requests = %d", n)
	}
	entries, _ := os.ReadDir(markers)
	if len(entries) != 0 {
		t.Fatalf("%d server(s) were started by listing or a first step", len(entries))
	}
}

// A vault held by another process past the wait: one line that says what
// to do, exit 1, and nothing changed.
func TestVaultHeldByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	s, home := openVault(t)
	defer s.Close()
	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.HoldWriteLock(ctx, func() { close(held); <-release })
	}()
	<-held
	cmd := taiCmd(home, "secret", "set", "HELD")
	cmd.Env = append(cmd.Env, "TAI_VAULT_BUSY_MS=200")
	cmd.Stdin = strings.NewReader("value-12345")
	out, err := cmd.CombinedOutput()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err == nil || !strings.HasPrefix(string(out), "tai: ") || !strings.Contains(string(out), "the vault is busy") || strings.Count(string(out), "\n") != 1 {
		t.Fatalf("err %v, output %q", err, out)
	}
	if list, _ := s.Secrets(ctx, vault.DefaultProfile); len(list) != 0 {
		t.Fatalf("a secret was stored: %+v", list)
	}
}

// `tai audit verify` run again and again beside three processes appending
// must never report tampering: it reads the rows and the head in one
// snapshot, and the anchor before it.
func TestAudit_VerifyBesideWritersNoFalseAlarm(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 3 writers and 25 verifiers")
	}
	home := filepath.Join(t.TempDir(), "home")
	if out, err := taiCmd(home, "audit", "verify").CombinedOutput(); err != nil {
		t.Fatalf("verify of an empty trail: %v\n%s", err, out)
	}
	stop := filepath.Join(t.TempDir(), "stop")
	wait := appenders(t, home, 3, "TAI_TEST_ROWS=100000", "TAI_TEST_STOP="+stop)
	counts := map[string]bool{}
	rowsRE := regexp.MustCompile(`intact: (\d+) rows`)
	for run := range 25 {
		out, err := taiCmd(home, "audit", "verify").CombinedOutput()
		if err != nil {
			t.Errorf("run %d: false alarm: %v\n%s", run, err, out)
			continue
		}
		if m := rowsRE.FindSubmatch(out); m != nil {
			counts[string(m[1])] = true
		}
	}
	os.WriteFile(stop, nil, 0o600)
	wait()
	if len(counts) < 2 {
		t.Fatalf("the verifications never overlapped the writers (row counts seen: %v)", counts)
	}
	if out, err := taiCmd(home, "audit", "verify").CombinedOutput(); err != nil {
		t.Fatalf("final verify: %v\n%s", err, out)
	}
}
