package client

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/wintest"
)

// With echoArgsEnv set, the test binary prints its arguments as JSON and
// exits: the program a batch file shim (like npx.cmd) hands %* to.
const echoArgsEnv = "TAI_ECHO_ARGS"

func init() {
	if os.Getenv(echoArgsEnv) != "" {
		json.NewEncoder(os.Stdout).Encode(os.Args[1:])
		os.Exit(0)
	}
}

// Arguments holding cmd's metacharacters, quotes, spaces and backslashes
// reach the program behind a batch file exactly, and none runs a second
// command: through the real cmd.exe, as an npx entry starts.
func TestCmdLine_ThroughCmdAndABatchFile(t *testing.T) {
	dir := wintest.TempDir(t)
	shim := filepath.Join(dir, "my shim.cmd")
	self, _ := os.Executable()
	if err := os.WriteFile(shim, []byte("@\""+self+"\" %*\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "pwned")
	args := []string{"-y", "@scope/pkg@1.0", "a b", `say "hi"`, `C:\dir\`, "x^y", "(p)",
		"a&echo x>" + marker, "a|echo x>" + marker, "!PATH!"}
	argv := append([]string{"cmd", "/c", shim}, args...)
	line, ok, err := cmdLine(argv)
	if !ok || err != nil {
		t.Fatalf("not a cmd line: %v", err)
	}
	cmd := exec.Command("cmd", argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line}
	cmd.Env = append(os.Environ(), echoArgsEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if diff := cmp.Diff(args, got); diff != "" {
		t.Errorf("arguments changed on the way (-sent +received):\n%s\nline: %s", diff, line)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an argument ran a command: %s exists", marker)
	}
}
