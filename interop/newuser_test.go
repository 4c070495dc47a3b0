package interop

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestNewUser replays, on an empty home, the session of a new user who
// follows only the README with the real tai binary and a real MCP server:
// help, the one line a missing model key gives, registering and calling a
// server, and serving tai over MCP to curl.
func TestNewUser(t *testing.T) {
	requireLoopbackNamespace(t) // the served port is fixed, as in the README
	tai := taiBinary(t)
	memory := nodeServer(t, "server-memory")
	everything := nodeServer(t, "server-everything")
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(e *testscript.Env) error {
			bin := filepath.Join(e.WorkDir, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				return err
			}
			if err := os.Symlink(tai, filepath.Join(bin, "tai")); err != nil {
				return err
			}
			e.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("MEMORY_SERVER", memory)
			e.Setenv("EVERYTHING_SERVER", everything)
			for _, k := range []string{"TAI_HOME", "XDG_DATA_HOME", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAI_MODEL", "TAI_BASE_URL", "TAI_MCP_KEY"} {
				e.Setenv(k, "")
			}
			return nil
		},
	})
}
