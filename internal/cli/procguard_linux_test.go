package cli

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"tai/internal/llm/llmtest"
)

// passphrase is long enough that finding it means finding it.
const passphrase = "vault-passphrase-that-must-not-leak"

// readParent is what a hostile prompt has the shell run: tai's command
// line (to show which process it found), then its environment in base64
// (past any redaction of tool output), then the first byte of its memory.
// tai is $PPID, or the parent of $PPID when that is the sandbox's helper
// (which stays between them while it carries the command's network).
const readParent = `P=$PPID; case "$(tr '\0' ' ' < /proc/$P/cmdline)" in *__sandbox*) P=$(awk '/^PPid:/ {print $2}' /proc/$P/status);; esac; ` +
	`printf 'parent: '; tr '\0' ' ' < /proc/$P/cmdline; echo; ` +
	`printf 'environ: '; base64 -w0 /proc/$P/environ 2>&1; echo; ` +
	`printf 'mem: '; head -c1 /proc/$P/mem 2>&1 | tail -c 80; echo`

// childView runs a one-shot turn in which the model has the shell read
// tai's /proc files, and returns the tool's result, field by field.
func childView(t *testing.T, cmd *exec.Cmd, srv *llmtest.Server) map[string]string {
	t.Helper()
	cmd.Env = append(cmd.Env, "TAI_BASE_URL="+srv.URL+"/v1", "TAI_MODEL=openai:fake",
		"OPENAI_API_KEY="+llmtest.Key, "TAI_VAULT_PASSPHRASE="+passphrase)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "looked") {
		t.Fatalf("tai: %v\n%s", err, out)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model requests = %d, want 2", len(reqs))
	}
	results := toolResults(reqs[1].Messages)
	if len(results) != 1 {
		t.Fatalf("tool results = %+v", results)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(results[0].Content, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			fields[k] = v
		}
	}
	if !strings.HasPrefix(fields["parent"], "tai --yolo ") {
		t.Fatalf("the process found is not tai: %q\n%s", fields["parent"], results[0].Content)
	}
	return fields
}

func shellTurn() llmtest.Script {
	args, _ := json.Marshal(map[string]string{"command": readParent})
	return llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("shell", string(args))}},
		{Text: text("looked")},
	}}
}

// A shell child of tai reads nothing of tai's keys from /proc/$PPID: for
// a user other than root the files are closed to it (tai is not
// dumpable), and root, whom that does not stop, finds the values wiped
// from the environment block (the keys still work: the model was reached
// with one).
//
// Outside the sandbox (--sandbox off): inside it, Landlock closes tai's
// /proc files to root too (TestProcess_SandboxedChildCannotReadTaiEnviron).
func TestProcess_ShellChildCannotReadTaiEnviron(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	srv := llmtest.Start(t, shellTurn())
	cmd := taiCmd(home, "--yolo", "--sandbox", "off", "-p", "look around")
	cmd.Dir = t.TempDir()
	f := childView(t, cmd, srv)
	if os.Geteuid() != 0 {
		wantDenied(t, f)
		return
	}
	env, err := base64.StdEncoding.DecodeString(f["environ"])
	if err != nil {
		t.Fatalf("root could not read tai's environ: %q", f["environ"])
	}
	if !strings.Contains(string(env), "TAI_HOME="+home+"\x00") {
		t.Fatalf("the environ read is not tai's:\n%q", env)
	}
	for _, v := range []string{llmtest.Key, passphrase} {
		if strings.Contains(string(env), v) {
			t.Errorf("tai's environ still holds %q:\n%q", v, env)
		}
	}
	for _, name := range []string{"OPENAI_API_KEY=", "TAI_VAULT_PASSPHRASE="} {
		if !strings.Contains(string(env), "\x00"+name) {
			t.Errorf("the name %s is gone; only values are wiped", name)
		}
	}
}

// In the sandbox (the default), tai's environ and memory are closed to its
// shell child whoever runs it, root included: Landlock refuses access to a
// process outside the child's domain.
func TestProcess_SandboxedChildCannotReadTaiEnviron(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	srv := llmtest.Start(t, shellTurn())
	cmd := taiCmd(home, "--yolo", "-p", "look around")
	cmd.Dir = t.TempDir()
	wantDenied(t, childView(t, cmd, srv))
}

// Run as an ordinary user (tests running as root switch to nobody), tai's
// environ and memory are closed to its own shell child.
func TestProcess_ShellChildCannotOpenTaiMemory(t *testing.T) {
	srv := llmtest.Start(t, shellTurn())
	if os.Geteuid() != 0 {
		home := filepath.Join(t.TempDir(), "home")
		cmd := taiCmd(home, "--yolo", "-p", "look around")
		cmd.Dir = t.TempDir()
		wantDenied(t, childView(t, cmd, srv))
		return
	}
	const nobody = 65534
	dir, err := os.MkdirTemp("", "tai-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "tai")
	copyFile(t, os.Args[0], bin, 0o755)
	home := filepath.Join(dir, "home")
	for _, d := range []string{dir, home} {
		os.MkdirAll(d, 0o755)
		if err := os.Chown(d, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	cmd := taiCmd(home, "--yolo", "-p", "look around")
	cmd.Path = bin
	cmd.Dir = home
	cmd.Env = append(cmd.Env, "HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	wantDenied(t, childView(t, cmd, srv))
}

func wantDenied(t *testing.T, f map[string]string) {
	t.Helper()
	for _, k := range []string{"environ", "mem"} {
		if !strings.Contains(f[k], "Permission denied") {
			t.Errorf("%s: got %q, want permission denied", k, f[k])
		}
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
