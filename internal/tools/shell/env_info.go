package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"tai/internal/tools"
)

// devTools are the programs env_info looks for on PATH.
var devTools = []string{
	"git", "rg", "make", "go", "gcc", "cc", "node", "npm", "npx", "python3",
	"pip3", "uv", "cargo", "rustc", "java", "docker", "jq", "curl",
}

func runEnvInfo(ctx context.Context, call tools.Call, _ tools.NoArgs) (tools.Result, error) {
	dir := ""
	if call.Env != nil {
		dir = call.Env.Dir
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, _ = filepath.Abs(dir)
	userShell := os.Getenv("SHELL")
	if userShell == "" {
		userShell = "unknown"
	}
	now := time.Now()
	zone, _ := now.Zone()

	var b strings.Builder
	fmt.Fprintf(&b, "os: %s\narch: %s\ncpus: %d\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Fprintf(&b, "shell: %s (the shell tool runs /bin/sh -c)\n", userShell)
	fmt.Fprintf(&b, "cwd: %s\n", dir)
	fmt.Fprintf(&b, "date: %s (time zone %s)\n", now.Format("2006-01-02 15:04 Monday"), zone)
	b.WriteString("tools:\n")
	for _, name := range devTools {
		path, err := exec.LookPath(name)
		if err != nil {
			path = "not found"
		}
		fmt.Fprintf(&b, "  %s: %s\n", name, path)
	}
	return tools.Text(b.String()), nil
}
