package client

import "testing"

// The cmd /c line that runs npx on Windows: pure string work, checked
// here on every system; running it through a real cmd.exe and batch file
// is TestCmdLine_ThroughCmdAndABatchFile (Windows, under wine in CI).
func TestCmdLine(t *testing.T) {
	tests := []struct {
		argv []string
		want string
		ok   bool
	}{
		{[]string{"cmd", "/c", "npx", "-y", "@modelcontextprotocol/server-memory"},
			`cmd.exe /d /s /c "npx ^^^"-y^^^" ^^^"@modelcontextprotocol/server-memory^^^""`, true},
		{[]string{`C:\Windows\system32\cmd.exe`, "/C", `C:\Program Files\nodejs\npx.cmd`, "a&calc"},
			`cmd.exe /d /s /c "C:\Program^ Files\nodejs\npx.cmd ^^^"a^^^&calc^^^""`, true},
		{[]string{"cmd", "/c", "npx", `say "hi"`, `dir\`, "100%"},
			`cmd.exe /d /s /c "npx ^^^"say^^^ \^^^"hi\^^^"^^^" ^^^"dir\\^^^" ^^^"100^^^%^^^""`, true},
		{[]string{"uvx", "mcp-server-fetch"}, "", false},
		{[]string{"cmd", "/k", "npx"}, "", false},
		{[]string{"cmd", "/c"}, "", false},
	}
	for _, tt := range tests {
		got, ok := cmdLine(tt.argv)
		if got != tt.want || ok != tt.ok {
			t.Errorf("cmdLine(%q) =\n  %s, %v\nwant\n  %s, %v", tt.argv, got, ok, tt.want, tt.ok)
		}
	}
}

func TestArgvQuote(t *testing.T) {
	for in, want := range map[string]string{
		``: `""`, `a b`: `"a b"`, `a"b`: `"a\"b"`, `a\"b`: `"a\\\"b"`, `a\b`: `"a\b"`, `a\`: `"a\\"`, `a\\`: `"a\\\\"`,
	} {
		if got := argvQuote(in); got != want {
			t.Errorf("argvQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
