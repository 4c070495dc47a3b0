package shell

import "strings"

// interpreter is the program that runs a command line on Windows.
type interpreter struct {
	kind string
	path string
	args []string // before the command line
}

const (
	gitBash    = "Git Bash"
	powerShell = "PowerShell"
)

func (i interpreter) String() string { return i.kind + " (" + i.path + ")" }

// findShell picks the shell for Windows as the leading agents document
// it: Git Bash's bash when Git for Windows is installed (TAI_GIT_BASH
// names it outright), else PowerShell (pwsh before Windows PowerShell).
// The bash that may sit in System32 is WSL's launcher, running commands
// in a Linux machine, so it is never taken. Pure over its arguments, so
// it is tested on every system.
func findShell(lookPath func(string) (string, error), isFile func(string) bool, getenv func(string) string) interpreter {
	bash := func(p string) interpreter { return interpreter{gitBash, p, []string{"-c"}} }
	if p := getenv("TAI_GIT_BASH"); p != "" && isFile(p) {
		return bash(p)
	}
	var candidates []string
	if git, err := lookPath("git"); err == nil {
		// Git for Windows puts git.exe in cmd\ (or mingw64\bin\) and bash.exe in bin\.
		dir := winDir(git)
		for _, up := range []string{`\cmd`, `\mingw64\bin`, `\bin`} {
			if root, ok := cutSuffixFold(dir, up); ok {
				candidates = append(candidates, root+`\bin\bash.exe`)
			}
		}
	}
	for _, v := range []string{"ProgramFiles", "ProgramW6432", "LOCALAPPDATA"} {
		if root := getenv(v); root != "" {
			sub := `\Git\bin\bash.exe`
			if v == "LOCALAPPDATA" {
				sub = `\Programs\Git\bin\bash.exe`
			}
			candidates = append(candidates, root+sub)
		}
	}
	if p, err := lookPath("bash"); err == nil && !strings.Contains(strings.ToLower(p), `\windows\system32\`) {
		candidates = append(candidates, p)
	}
	for _, c := range candidates {
		if isFile(c) {
			return bash(c)
		}
	}
	ps := []string{"-NoLogo", "-NoProfile", "-NonInteractive", "-Command"}
	if p, err := lookPath("pwsh"); err == nil {
		return interpreter{powerShell, p, ps}
	}
	if p, err := lookPath("powershell"); err == nil {
		return interpreter{powerShell, p, ps}
	}
	return interpreter{powerShell, "powershell.exe", ps}
}

// winDir is a Windows path's directory, without the trailing separator.
func winDir(p string) string {
	if i := strings.LastIndexAny(p, `\/`); i >= 0 {
		return p[:i]
	}
	return ""
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}
