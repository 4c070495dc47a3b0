package cli

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"tai/internal/vault"
)

// The test binary doubles as tai (and as small vault workers), so tests
// drive real processes without building anything first.
func TestMain(m *testing.M) {
	switch os.Getenv("TAI_TEST_ROLE") {
	case "audit-appender":
		os.Exit(appendAuditRows(os.Getenv("TAI_HOME")))
	}
	testscript.Main(m, map[string]func(){
		"tai": func() { os.Exit(Main(os.Args[1:])) },
	})
}

// appendAuditRows appends TAI_TEST_ROWS rows to the audit trail of home.
func appendAuditRows(home string) int {
	n, _ := strconv.Atoi(os.Getenv("TAI_TEST_ROWS"))
	ctx := context.Background()
	s, err := vault.Open(ctx, home, vault.Options{})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	defer s.Close()
	for i := range n {
		if err := s.Audit(ctx, vault.AuditEntry{Profile: "default", Kind: "test", Subject: strconv.Itoa(os.Getpid()) + "/" + strconv.Itoa(i), Outcome: "ok"}); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
	}
	return 0
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			e.Setenv("TAI_HOME", e.WorkDir+"/home")
			e.Setenv("TAI_SEAL_KDF", "test")
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
	})
}
