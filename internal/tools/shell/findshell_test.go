package shell

import (
	"errors"
	"strings"
	"testing"
)

// The Windows shell is chosen by rules over paths alone: checked here on
// every system with a made-up machine.
func TestFindShell(t *testing.T) {
	tests := []struct {
		name     string
		path     map[string]string // program → where PATH finds it
		files    []string
		env      map[string]string
		wantKind string
		wantPath string
	}{
		{"git on PATH, from Git for Windows", map[string]string{"git": `C:\Program Files\Git\cmd\git.exe`},
			[]string{`C:\Program Files\Git\bin\bash.exe`}, nil, gitBash, `C:\Program Files\Git\bin\bash.exe`},
		{"git's mingw64 folder on PATH", map[string]string{"git": `D:\tools\Git\mingw64\bin\git.exe`},
			[]string{`D:\tools\Git\bin\bash.exe`}, nil, gitBash, `D:\tools\Git\bin\bash.exe`},
		{"no git on PATH, installed for everyone", nil,
			[]string{`C:\Program Files\Git\bin\bash.exe`}, map[string]string{"ProgramFiles": `C:\Program Files`}, gitBash, `C:\Program Files\Git\bin\bash.exe`},
		{"installed for the user", nil, []string{`C:\Users\a\AppData\Local\Programs\Git\bin\bash.exe`},
			map[string]string{"LOCALAPPDATA": `C:\Users\a\AppData\Local`}, gitBash, `C:\Users\a\AppData\Local\Programs\Git\bin\bash.exe`},
		{"named outright", map[string]string{"git": `C:\Program Files\Git\cmd\git.exe`},
			[]string{`E:\msys\bash.exe`, `C:\Program Files\Git\bin\bash.exe`}, map[string]string{"TAI_GIT_BASH": `E:\msys\bash.exe`}, gitBash, `E:\msys\bash.exe`},
		{"WSL's bash is not Git Bash", map[string]string{"bash": `C:\WINDOWS\System32\bash.exe`, "pwsh": `C:\Program Files\PowerShell\7\pwsh.exe`},
			[]string{`C:\WINDOWS\System32\bash.exe`}, nil, powerShell, `C:\Program Files\PowerShell\7\pwsh.exe`},
		{"git without its bash", map[string]string{"git": `C:\Program Files\Git\cmd\git.exe`, "powershell": `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`},
			nil, nil, powerShell, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`},
		{"nothing found", nil, nil, nil, powerShell, "powershell.exe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			look := func(p string) (string, error) {
				if f, ok := tt.path[p]; ok {
					return f, nil
				}
				return "", errors.New("not found")
			}
			isFile := func(p string) bool {
				for _, f := range tt.files {
					if strings.EqualFold(f, p) {
						return true
					}
				}
				return false
			}
			got := findShell(look, isFile, func(k string) string { return tt.env[k] })
			if got.kind != tt.wantKind || got.path != tt.wantPath {
				t.Errorf("got %s, want %s (%s)", got, tt.wantKind, tt.wantPath)
			}
			wantArg := map[string]string{gitBash: "-c", powerShell: "-Command"}[tt.wantKind]
			if got.args[len(got.args)-1] != wantArg {
				t.Errorf("args %q end without %s", got.args, wantArg)
			}
		})
	}
}
