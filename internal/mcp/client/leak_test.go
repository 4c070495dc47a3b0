package client

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tai/internal/mcp/mcptest"
)

// checkLeaks fails the test if, once it and its cleanups are done, more
// goroutines run than before it or any child process of the test binary is
// left, zombies included. Register it first, so that it runs last.
func checkLeaks(t *testing.T) {
	t.Helper()
	mcptest.CheckGoroutines(t, func() {
		if kids := childProcesses(); len(kids) > 0 {
			t.Errorf("child processes left behind: %v", kids)
		}
	})
}

// childProcesses lists the pids whose parent is this process.
func childProcesses() []int {
	self := os.Getpid()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(b[i+1:])) // state, ppid, …
		if len(fields) > 1 && fields[1] == strconv.Itoa(self) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			kids = append(kids, pid)
		}
	}
	return kids
}
