package procguard

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

const secret = "sk-proj-not-to-be-read-0123456789"

// childReport is what the helper process saw of itself.
type childReport struct {
	ProtectErr string
	Environ    string // /proc/self/environ once protected …
	EnvironErr string // … or why it could not be read
	Getenv     string // os.Getenv once protected
	Dumpable   int
	SelfFiles  []string // errors reading its own /proc files once protected
	asNobody   bool
}

// TestHelperProcess is the child the tests below start; it does nothing
// when run as a test.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("PROCGUARD_CHILD") != "1" {
		return
	}
	var r childReport
	if err := protect([]string{"OPENAI_API_KEY", "ABSENT_KEY"}); err != nil {
		r.ProtectErr = err.Error()
	}
	if b, err := os.ReadFile("/proc/self/environ"); err != nil {
		r.EnvironErr = err.Error()
	} else {
		r.Environ = string(b)
	}
	r.Getenv = os.Getenv("OPENAI_API_KEY")
	r.Dumpable, _ = unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	for _, f := range []string{"/proc/self/status", "/proc/self/maps", "/proc/self/cgroup"} {
		if _, err := os.ReadFile(f); err != nil {
			r.SelfFiles = append(r.SelfFiles, err.Error())
		}
	}
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		r.SelfFiles = append(r.SelfFiles, err.Error())
	}
	if _, err := os.Executable(); err != nil {
		r.SelfFiles = append(r.SelfFiles, err.Error())
	}
	json.NewEncoder(os.Stdout).Encode(r)
	os.Exit(0)
}

// runChild runs the helper as the test's user or, with asNobody (tests
// running as root), as an ordinary user, for whom a process that is not
// dumpable has its /proc files owned by root.
func runChild(t *testing.T, asNobody bool) childReport {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "PROCGUARD_CHILD=1", "OPENAI_API_KEY="+secret, "KEPT="+secret)
	if asNobody {
		dir, err := os.MkdirTemp("", "procguard-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		os.Chmod(dir, 0o755)
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		cmd.Path = filepath.Join(dir, "procguard.test")
		if err := os.WriteFile(cmd.Path, b, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var r childReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("child said %q: %v", out, err)
	}
	r.asNobody = asNobody
	return r
}

// The value is gone from the block the kernel shows, its name and other
// variables stay, Go's copy still has it, and once protected the process
// is not dumpable and still reads its own /proc files.
func TestProtect_WipesValueKeepsGetenv(t *testing.T) {
	t.Run("as the test's user", func(t *testing.T) { checkChild(t, runChild(t, false)) })
	if os.Geteuid() == 0 {
		t.Run("as nobody", func(t *testing.T) { checkChild(t, runChild(t, true)) })
	}
}

func checkChild(t *testing.T, r childReport) {
	if r.ProtectErr != "" {
		t.Fatalf("protect: %q", r.ProtectErr)
	}
	if os.Geteuid() == 0 && !r.asNobody {
		zeros := "OPENAI_API_KEY=" + strings.Repeat("\x00", len(secret)) + "\x00"
		if !strings.Contains(r.Environ, zeros) || strings.Count(r.Environ, secret) != 1 || !strings.Contains(r.Environ, "KEPT="+secret) {
			t.Errorf("environ after the wipe (%s):\n%q", r.EnvironErr, r.Environ)
		}
	} else if !strings.Contains(r.EnvironErr, "permission denied") {
		// Not dumpable, the file is root's; tai never reads it.
		t.Errorf("an ordinary user's own environ: %q, %q; want permission denied", r.Environ, r.EnvironErr)
	}
	if r.Getenv != secret {
		t.Errorf("os.Getenv = %q, want the real value", r.Getenv)
	}
	if r.Dumpable != 0 {
		t.Errorf("dumpable = %d, want 0", r.Dumpable)
	}
	if len(r.SelfFiles) != 0 {
		t.Errorf("reading its own /proc files: %q", r.SelfFiles)
	}
}

func TestEnvSpan(t *testing.T) {
	own, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	if start, end, err := envSpan(own); err != nil || end <= start {
		t.Fatalf("own stat: %x %x %v", start, end, err)
	}
	fields := func(comm string, env ...string) []byte {
		f := make([]string, 47)
		for i := range f {
			f[i] = "0"
		}
		return []byte("123 (" + comm + ") " + strings.Join(append(f, env...), " ") + " 0 0\n")
	}
	if start, end, err := envSpan(fields("a b) (c", "4096", "8192")); err != nil || start != 4096 || end != 8192 {
		t.Errorf("a command name with ') (': %d %d %v", start, end, err)
	}
	for name, stat := range map[string][]byte{
		"empty":         nil,
		"no name":       []byte("123 tai R 1 2 3"),
		"short":         []byte("123 (tai) R 1 2 3"),
		"not a number":  fields("tai", "x", "8192"),
		"end <= start":  fields("tai", "8192", "4096"),
		"implausible":   fields("tai", "4096", "999999999999"),
		"negative-like": fields("tai", "-1", "8192"),
	} {
		if _, _, err := envSpan(stat); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSecretValues(t *testing.T) {
	block := []byte("A=1\x00KEY=secret\x00KEYS=other\x00EMPTY=\x00NOEQ\x00KEY2=x=y\x00")
	got := secretValues(block, []string{"KEY", "EMPTY", "NOEQ", "KEY2"})
	var values []string
	for _, s := range got {
		values = append(values, string(block[s[0]:s[1]]))
	}
	if strings.Join(values, ",") != "secret,x=y" {
		t.Fatalf("values %q", values)
	}
}

// Every way the wipe can fail is an error, never a panic or a write
// elsewhere: Protect ignores it and tai starts.
func TestWipeEnviron_Failures(t *testing.T) {
	dir := t.TempDir()
	if err := wipeEnviron(dir, []string{"K"}); err == nil {
		t.Error("no stat: no error")
	}
	stat := "1 (tai) " + strings.Repeat("0 ", 47) + "4096 8192 0 0\n"
	os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o600)
	if err := wipeEnviron(dir, []string{"K"}); err == nil {
		t.Error("no mem: no error")
	}
	os.WriteFile(filepath.Join(dir, "mem"), bytes.Repeat([]byte("K=v\x00"), 100), 0o600)
	if err := wipeEnviron(dir, []string{"K"}); err == nil || !strings.Contains(err.Error(), "reading the environment block") {
		t.Errorf("short mem: %v", err)
	}
	Protect([]string{"K"}) // in this process too: no panic, no error to handle
}
