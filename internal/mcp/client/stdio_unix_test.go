//go:build unix

package client

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// npm ends every failure with a pointer to its log file; the line that says
// what went wrong comes before it. The error quotes the last meaningful
// lines, once.
func TestStdio_ExitBeforeHandshakeQuotesStderrOnce(t *testing.T) {
	script := `printf '%s\n' 'npm error code ENOENT' ` +
		`'npm error npx canceled due to missing packages and no YES option: ["left-pad@1.3.0"]' ` +
		`'npm error' 'npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log' >&2; exit 1`
	path := filepath.Join(t.TempDir(), "npx-like")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Connect(context.Background(), Options{Transport: Stdio{Command: path}})
	if err == nil {
		t.Fatal("a server that exits connected")
	}
	msg := err.Error()
	if n := strings.Count(msg, "its stderr ends"); n != 1 {
		t.Errorf("stderr quoted %d times, want once: %s", n, msg)
	}
	if !strings.Contains(msg, "npx canceled due to missing packages and no YES option") || !strings.Contains(msg, "npm error code ENOENT") {
		t.Errorf("the cause is not quoted: %s", msg)
	}
	if strings.Contains(msg, "A complete log") {
		t.Errorf("npm's log pointer is quoted: %s", msg)
	}
}
