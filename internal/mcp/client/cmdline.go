package client

import (
	"fmt"
	"path"
	"strings"
)

// cmdMeta are the characters cmd.exe gives a meaning to outside quotes;
// a caret before one makes it literal. The quote is among them: escaped,
// it never toggles cmd's quoting state, so no later character is exposed.
const cmdMeta = "()[]%!^\"`<>&|;, *?"

// cmdLine is the Windows command line for argv when argv runs a program
// through cmd /c (mcp.md: npx runs as cmd /c npx …, since npx is a batch
// file), and false for any other argv, which Go's own quoting serves.
//
// Go quotes each argument for the program's argv parser only; cmd.exe
// reads the line first and would run `a&calc` as two commands, and a
// batch file hands its arguments (%*) to cmd once more. So, as
// cross-spawn does for Node: /d (no AutoRun) /s /c "…" around the whole
// line, the program in quotes (a Windows path holds no quote), and each
// argument quoted for the argv parser, then escaped once for this cmd and
// once for the batch file's.
//
// A percent sign or a line break cannot be carried at all: cmd expands
// %NAME% before any escape applies, and ends the command at a line
// break. Such an argument is refused with an error naming it.
func cmdLine(argv []string) (string, bool, error) {
	if len(argv) < 3 || !isCmd(argv[0]) || !strings.EqualFold(argv[1], "/c") {
		return "", false, nil
	}
	for _, a := range argv[2:] {
		if strings.ContainsAny(a, "%\r\n") {
			return "", true, fmt.Errorf("argument %q holds %% or a line break, which cmd /c cannot pass on unchanged; this server cannot start through cmd on Windows", a)
		}
	}
	parts := []string{`"` + argv[2] + `"`}
	for _, a := range argv[3:] {
		parts = append(parts, caretEscape(caretEscape(argvQuote(a))))
	}
	return `cmd.exe /d /s /c "` + strings.Join(parts, " ") + `"`, true, nil
}

func isCmd(prog string) bool {
	b := strings.ToLower(path.Base(strings.ReplaceAll(prog, `\`, "/")))
	return b == "cmd" || b == "cmd.exe"
}

func caretEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(cmdMeta, r) {
			b.WriteByte('^')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// argvQuote quotes a for CommandLineToArgvW and the C runtime: always in
// quotes, a quote escaped with a backslash, and the backslashes before a
// quote (or before the closing one) doubled.
func argvQuote(a string) string {
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for _, r := range a {
		switch r {
		case '\\':
			slashes++
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*slashes+1))
		default:
			b.WriteString(strings.Repeat(`\`, slashes))
		}
		slashes = 0
		b.WriteRune(r)
	}
	b.WriteString(strings.Repeat(`\`, 2*slashes))
	b.WriteByte('"')
	return b.String()
}
