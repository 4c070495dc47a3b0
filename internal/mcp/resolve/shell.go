package resolve

import "strings"

// commandLines returns the logical lines of a shell block: continuation
// lines joined (\ for POSIX shells, ` for PowerShell, ^ for cmd), prompts
// ($, >, %, PS>) stripped, comments and blank lines left out.
func commandLines(body string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, " \t\r")
		cont := false
		for _, mark := range []string{" \\", " `", " ^"} {
			if strings.HasSuffix(line, mark) || line == strings.TrimSpace(mark) {
				line, cont = strings.TrimSuffix(line, strings.TrimSpace(mark)), true
				break
			}
		}
		if cur.Len() == 0 {
			line = stripPrompt(strings.TrimSpace(line))
		}
		cur.WriteString(line + " ")
		if cont {
			continue
		}
		if l := strings.TrimSpace(cur.String()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
		cur.Reset()
	}
	if l := strings.TrimSpace(cur.String()); l != "" {
		out = append(out, l)
	}
	return out
}

func stripPrompt(l string) string {
	for _, p := range []string{"$ ", "> ", "% ", "PS> "} {
		if rest, ok := strings.CutPrefix(l, p); ok {
			return strings.TrimSpace(rest)
		}
	}
	return l
}

// words splits a command line as a POSIX shell would, into words and the
// operators that end a command (&&, ||, |, ;, &, redirections). An
// unquoted # starting a word begins a comment. ok is false for unbalanced
// quotes.
func words(line string) (out []string, ok bool) {
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			return out, true
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			w.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`", line[j+1]) >= 0 {
					j++
				}
				w.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, false
			}
			inWord, i = true, j
		case c == '\\' && i+1 < len(line):
			w.WriteByte(line[i+1])
			inWord, i = true, i+1
		case strings.IndexByte("&|;<>", c) >= 0:
			flush()
			op := string(c)
			if i+1 < len(line) && (line[i+1] == c || c == '>' && line[i+1] == '&') {
				op += string(line[i+1])
				i++
			}
			out = append(out, op)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return out, true
}

// isOperator reports whether word is one of the operators words returns.
func isOperator(word string) bool {
	return word != "" && strings.IndexByte("&|;<>", word[0]) >= 0
}
