package oauth

import (
	"os"
	"testing"
)

// The test binary doubles as the helper processes some tests start: a
// browser that records the URL it was given, and a tai process that
// refreshes a login (see tokens_process_test.go).
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("OAUTH_TEST_BROWSER_OUT") != "":
		_ = os.WriteFile(os.Getenv("OAUTH_TEST_BROWSER_OUT"), []byte(os.Args[len(os.Args)-1]), 0o600)
		os.Exit(0)
	case os.Getenv("OAUTH_TEST_REFRESHER") != "":
		os.Exit(refresherMain())
	}
	os.Exit(m.Run())
}
