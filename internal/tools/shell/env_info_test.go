package shell

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"tai/internal/tools"
)

func TestEnvInfo_DescribesTheMachine(t *testing.T) {
	t.Setenv("SHELL", "/bin/zsh")
	t.Setenv("TAI_ENVINFO_SECRET", "do-not-show-this")
	dir := t.TempDir()
	res := call(t, EnvInfo(), &tools.Env{Dir: dir}, `{}`)
	if res.IsError {
		t.Fatalf("got %+v", res)
	}
	git := "not found"
	if p, err := exec.LookPath("git"); err == nil {
		git = p
	}
	for _, want := range []string{
		"os: " + runtime.GOOS + "\n",
		"arch: " + runtime.GOARCH + "\n",
		"shell: /bin/zsh (the shell tool runs /bin/sh -c)\n",
		"cwd: " + dir + "\n",
		"\n  git: " + git + "\n",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("env_info lacks %q:\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "do-not-show-this") {
		t.Errorf("env_info shows an environment value:\n%s", res.Text)
	}
}

func TestEnvInfo_RejectsArguments(t *testing.T) {
	res := call(t, EnvInfo(), &tools.Env{}, `{"verbose": true}`)
	if !res.IsError || !strings.Contains(res.Text, `unknown argument "verbose"`) {
		t.Fatalf("got %+v", res)
	}
}
