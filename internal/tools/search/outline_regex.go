package search

import (
	"strings"

	"tai/internal/lazyre"
)

// language finds declaration lines of one language by their first words.
type language struct {
	decl *lazyre.Regexp
}

var (
	pythonDecl = language{lazyre.New(`^\s*(async\s+def|def|class)\s+\w`)}
	jsDecl     = language{lazyre.New(`^\s*(export\s+)?(default\s+)?(declare\s+)?(abstract\s+)?` +
		`((async\s+)?function\b|class\s|interface\s|type\s+\w+\s*[=<]|enum\s|(const|let|var)\s+\w+\s*(:[^=]*)?=\s*(async\s*)?(\([^)]*\)|\w+)\s*(:[^=]*)?=>)`)}
	rustDecl = language{lazyre.New(`^\s*(pub(\([^)]*\))?\s+)?((async|const|unsafe|extern\s+"[^"]*")\s+)*` +
		`(fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules!)[\s<{!]`)}
	rubyDecl  = language{lazyre.New(`^\s*(def|class|module)\s`)}
	jvmDecl   = language{lazyre.New(`^\s*((public|private|protected|internal|static|final|abstract|sealed|open|data|partial|readonly|override|suspend|inline)\s+)*(class|interface|enum|record|struct|object|fun)\s+\w`)}
	shellDecl = language{lazyre.New(`^\s*(function\s+[\w.:-]+|[\w.:-]+\s*\(\s*\))\s*\{?`)}
)

// languages maps file extensions to their declaration patterns.
var languages = map[string]language{
	".py": pythonDecl, ".pyi": pythonDecl,
	".js": jsDecl, ".jsx": jsDecl, ".mjs": jsDecl, ".cjs": jsDecl, ".ts": jsDecl, ".tsx": jsDecl, ".mts": jsDecl, ".cts": jsDecl,
	".rs":   rustDecl,
	".rb":   rubyDecl,
	".java": jvmDecl, ".kt": jvmDecl, ".kts": jvmDecl, ".cs": jvmDecl,
	".sh": shellDecl, ".bash": shellDecl, ".zsh": shellDecl,
}

// scan lists the lines that start a declaration, without their trailing
// whitespace or an opening brace left alone at the end.
func (l language) scan(src []byte) []decl {
	var out []decl
	for i, line := range strings.Split(string(src), "\n") {
		if l.decl.MatchString(line) {
			text := strings.TrimRight(line, " \t\r")
			text = strings.TrimSpace(strings.TrimSuffix(text, "{"))
			indent := len(line) - len(strings.TrimLeft(line, " \t"))
			out = append(out, decl{i + 1, strings.Repeat(" ", min(indent, 16)) + text})
		}
	}
	return out
}
