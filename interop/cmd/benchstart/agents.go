package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// agent is one program under measurement.
type agent struct {
	name    string   // as the table shows it
	version string   // as its --version says it
	argv    []string // the command, before the mode's arguments
	env     []string
	home    string
	// oneShot returns the arguments and extra environment that make the
	// agent answer prompt once against the model server at url; nil when
	// the agent cannot be pointed at a local server.
	oneShot func(url, prompt string) (args, env []string)
}

// mode is one kind of start.
type mode string

const (
	modeVersion mode = "--version"
	modeHelp    mode = "--help"
	modeFirst   mode = "first model request"
)

var modes = []mode{modeVersion, modeHelp, modeFirst}

// newAgents makes tai and the peers, each with a fresh HOME under base.
func newAgents(taiBin, peerDir, base string) ([]*agent, error) {
	bin := func(name string) (string, error) {
		p, err := filepath.Abs(filepath.Join(peerDir, ".bin", name))
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s is not installed (%w); run interop/bench-start, which installs it with npm ci", name, err)
		}
		return p, nil
	}
	node, err := bin("node")
	if err != nil {
		return nil, err
	}
	tai, err := filepath.Abs(taiBin)
	if err != nil {
		return nil, err
	}
	claude, err := bin("claude")
	if err != nil {
		return nil, err
	}
	codex, err := bin("codex")
	if err != nil {
		return nil, err
	}
	gemini, err := bin("gemini")
	if err != nil {
		return nil, err
	}
	agents := []*agent{
		{name: "tai", argv: []string{tai}, oneShot: func(url, prompt string) ([]string, []string) {
			return []string{"-p", prompt}, []string{
				"TAI_MODEL=anthropic:claude-sonnet-4-5", "TAI_BASE_URL=" + url, "ANTHROPIC_API_KEY=bench-key"}
		}},
		{name: "Claude Code", argv: []string{claude}, oneShot: func(url, prompt string) ([]string, []string) {
			return []string{"-p", prompt}, []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=bench-key"}
		}},
		{name: "Codex CLI", argv: []string{codex}, oneShot: func(url, prompt string) ([]string, []string) {
			return []string{"exec", "--skip-git-repo-check", "-c", fmt.Sprintf("openai_base_url=%q", url+"/v1"), prompt},
				[]string{"CODEX_API_KEY=bench-key"}
		}},
		{name: "Gemini CLI", argv: []string{gemini}, oneShot: func(url, prompt string) ([]string, []string) {
			return []string{"-p", prompt}, []string{"GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=bench-key", "GEMINI_CLI_TRUST_WORKSPACE=true"}
		}},
	}
	for i, a := range agents {
		a.home = filepath.Join(base, fmt.Sprintf("home-%d", i))
		if err := os.MkdirAll(a.home, 0o700); err != nil {
			return nil, err
		}
		a.env = agentEnv(a.home, filepath.Dir(node))
	}
	for _, a := range agents {
		if a.version, err = versionOf(a); err != nil {
			return nil, err
		}
	}
	// Settings files, where an agent documents its switches only there.
	files := map[string]string{
		filepath.Join(agents[2].home, ".codex", "config.toml"): "check_for_update_on_startup = false\n\n[analytics]\nenabled = false\n",
		filepath.Join(agents[3].home, ".gemini", "settings.json"): `{
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}
`,
	}
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			return nil, err
		}
	}
	return agents, nil
}

var versionNumber = regexp.MustCompile(`\d+\.\d+\.\d+\S*`)

// versionOf is the version number a's --version prints.
func versionOf(a *agent) (string, error) {
	cmd := exec.Command(a.argv[0], append(a.argv[1:], "--version")...)
	cmd.Env, cmd.Dir = a.env, a.home
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", a.name, err)
	}
	v := versionNumber.FindString(string(out))
	if v == "" {
		return "", fmt.Errorf("%s --version printed no version number: %q", a.name, out)
	}
	return v, nil
}
