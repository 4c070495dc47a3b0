package bridge

import (
	"strings"
	"testing"

	"tai/internal/mcp/config"
)

// The consent screen says what a stdio server gets of the environment:
// the short allowlist, the entry's env, and which variables pass through
// under their own name; a variable from the vault, or under another name,
// is not "passed through".
func TestDescribe_StatesTheEnvironment(t *testing.T) {
	t.Setenv("PASSME", "v1")
	t.Setenv("OTHER", "v2")
	e, err := config.Normalize(`[mcp_servers.s]
command = "srv"
env = { LITERAL = "x", RENAMED = "${OTHER}" }
env_vars = ["PASSME", "ZZ_FROM_VAULT"]
`, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, err := config.ExpandVars(e[0], config.Sources{Secret: func(name string) (string, bool, error) {
		return "vault-value", name == "ZZ_FROM_VAULT", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	d := Describe(x, "register").Detail
	for _, want := range []string{
		"\nenvironment: only HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG, LC_*, TMPDIR, TZ, and proxy settings without credentials",
		"; plus env below\n",
		"\npassed through from your environment: PASSME\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("consent lacks %q:\n%s", want, d)
		}
	}
	x, _ = config.ExpandVars(config.Entry{Name: "bare", Transport: config.Stdio, Command: "srv"}, config.Sources{})
	d = Describe(x, "register").Detail
	if !strings.Contains(d, "; nothing else") || strings.Contains(d, "passed through") {
		t.Errorf("an entry without env:\n%s", d)
	}
}

// What passes through is part of what was approved: naming one more
// variable in env_vars changes the launch's fingerprint, so the consent is
// shown again before the server starts with it.
func TestLaunchHash_CoversPassedThroughNames(t *testing.T) {
	t.Setenv("PASSME", "v")
	hash := func(envVars string) string {
		e, err := config.Normalize("[mcp_servers.s]\ncommand = \"srv\"\nenv_vars = "+envVars+"\n", config.Options{})
		if err != nil {
			t.Fatal(err)
		}
		x, err := config.ExpandVars(e[0], config.Sources{})
		if err != nil {
			t.Fatal(err)
		}
		return LaunchHash(x.Entry)
	}
	if hash(`[]`) == hash(`["PASSME"]`) {
		t.Error("passing PASSME through leaves the launch fingerprint unchanged")
	}
}
