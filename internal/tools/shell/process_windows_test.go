package shell

import (
	"strings"
	"testing"
)

// Under PowerShell no command is read-only and none can be granted for
// good, since tai's rules parse sh; under Git Bash the sh rules apply.
func TestWindowsShell_PowerShellIsNeverReadOnly(t *testing.T) {
	saved := shell
	t.Cleanup(func() { shell = saved })
	shell = func() interpreter { return interpreter{powerShell, "pwsh.exe", []string{"-Command"}} }
	for _, line := range []string{"ls", "cat README.md", "git status"} {
		if err := ReadOnly(line); err == nil || !strings.Contains(err.Error(), "PowerShell") {
			t.Errorf("ReadOnly(%q) = %v under PowerShell", line, err)
		}
	}
	if g := commandGrants("npm test"); g != nil {
		t.Errorf("grants offered under PowerShell: %v", g)
	}
	if !strings.Contains(Shell().Description, "PowerShell (pwsh.exe)") {
		t.Errorf("the description does not name the shell")
	}
	shell = func() interpreter { return interpreter{gitBash, `C:\Git\bin\bash.exe`, []string{"-c"}} }
	if err := ReadOnly("ls"); err != nil {
		t.Errorf("ReadOnly(ls) under Git Bash: %v", err)
	}
	if g := commandGrants("npm test"); len(g) != 1 || g[0].Subject != "npm test" {
		t.Errorf("grants under Git Bash: %v", g)
	}
}
