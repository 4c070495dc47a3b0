package search

import (
	"os"
	"testing"
	"time"

	"tai/internal/tools"
)

// TestGrep_EnginesAgreeOnLocalTree is an opt-in parity check on a real tree:
//
//	TAI_GREP_PARITY_TREE=/usr/local/go/src go test -run LocalTree -v ./internal/tools/search
//
// It logs each engine's time; it asserts only that the outputs agree.
func TestGrep_EnginesAgreeOnLocalTree(t *testing.T) {
	dir := os.Getenv("TAI_GREP_PARITY_TREE")
	if dir == "" {
		t.Skip("set TAI_GREP_PARITY_TREE to a directory to compare the engines on it")
	}
	env := &tools.Env{Dir: dir}
	queries := []string{
		`{"pattern":"func main\\(","files_only":true}`,
		`{"pattern":"TODO\\(rsc\\)","context":1}`,
		`{"pattern":"(?i)deadline exceeded"}`,
		`{"pattern":"^package \\w+_test$","glob":"*_test.go","files_only":true}`,
	}
	for _, q := range queries {
		var out [2]string
		for i, engine := range []string{"rg", "go"} {
			withEngine(t, engine, func() {
				start := time.Now()
				out[i] = ok(t, env, Grep, q)
				t.Logf("%s %s: %v, %d bytes", engine, q, time.Since(start), len(out[i]))
			})
		}
		if out[0] != out[1] {
			t.Errorf("%s: engines differ\nripgrep:\n%s\ngo:\n%s", q, out[0], out[1])
		}
	}
}
