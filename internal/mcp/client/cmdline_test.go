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
		err  string
	}{
		{[]string{"cmd", "/c", "npx", "-y", "@modelcontextprotocol/server-memory"},
			`cmd.exe /d /s /c ""npx" ^^^"-y^^^" ^^^"@modelcontextprotocol/server-memory^^^""`, true, ""},
		{[]string{`C:\Windows\system32\cmd.exe`, "/C", `C:\Program Files\nodejs\npx.cmd`, "a&calc"},
			`cmd.exe /d /s /c ""C:\Program Files\nodejs\npx.cmd" ^^^"a^^^&calc^^^""`, true, ""},
		{[]string{"cmd", "/c", "npx", `say "hi"`, `dir\`, "x^y"},
			`cmd.exe /d /s /c ""npx" ^^^"say^^^ \^^^"hi\^^^"^^^" ^^^"dir\\^^^" ^^^"x^^^^y^^^""`, true, ""},
		{[]string{"cmd", "/c", "npx", "%PATH%"}, "", true,
			`argument "%PATH%" holds % or a line break, which cmd /c cannot pass on unchanged; this server cannot start through cmd on Windows`},
		{[]string{"cmd", "/c", "npx", "a\nb"}, "", true,
			`argument "a\nb" holds % or a line break, which cmd /c cannot pass on unchanged; this server cannot start through cmd on Windows`},
		{[]string{"uvx", "mcp-server-fetch"}, "", false, ""},
		{[]string{"cmd", "/k", "npx"}, "", false, ""},
		{[]string{"cmd", "/c"}, "", false, ""},
	}
	for _, tt := range tests {
		got, ok, err := cmdLine(tt.argv)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if got != tt.want || ok != tt.ok || errText != tt.err {
			t.Errorf("cmdLine(%q) =\n  %s, %v, %v\nwant\n  %s, %v, %s", tt.argv, got, ok, err, tt.want, tt.ok, tt.err)
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
