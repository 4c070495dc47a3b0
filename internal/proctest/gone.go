//go:build unix

package proctest

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// AssertGone fails t unless pid stops running (or is a zombie) within 5s;
// it then kills pid.
func AssertGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); Running(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d still runs 5s later", pid)
		}
	}
}

// Running reports whether pid exists and is not a zombie.
func Running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}
