package shell

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"tai/internal/proctest"
	"tai/internal/sandbox"
)

func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	if err := proctest.Subreap(); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

var (
	assertKilled      = proctest.AssertKilled
	assertGroupKilled = proctest.AssertGroupKilled
)

// pids reads the whitespace-separated numbers on the first line of s.
func pids(t *testing.T, s string) []int {
	t.Helper()
	line, _, _ := strings.Cut(s, "\n")
	var out []int
	for _, f := range strings.Fields(line) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("first line %q: want pids", line)
		}
		out = append(out, n)
	}
	return out
}
