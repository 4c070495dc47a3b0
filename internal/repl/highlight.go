package repl

import (
	"strings"
	"sync"
	"unicode"
)

// Colours of highlighted code (SGR parameters).
const (
	sgrKeyword = "35"
	sgrString  = "32"
	sgrComment = "90"
	sgrNumber  = "33"
)

// language is what the highlighter knows of a language: its keywords, how
// a comment starts, and which quotes make strings.
type language struct {
	keywords map[string]bool
	comments []string
	quotes   string
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	cLike  = []string{"//"}
	hashes = []string{"#"}
)

// languages by the names fences use. A language tai does not know is
// shown uncoloured; colours are a reading aid, never meaning. Built on
// first use, not at every start of tai.
var languages = sync.OnceValue(func() map[string]*language {
	goLang := &language{wordSet("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota"), cLike, "\"'`"}
	py := &language{wordSet("and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self"), hashes, "\"'"}
	js := &language{wordSet("async await break case catch class const continue debugger default delete do else export extends false finally for from function if import in instanceof let new null of return super switch this throw true try typeof undefined var void while with yield interface type enum implements readonly"), cLike, "\"'`"}
	sh := &language{wordSet("if then else elif fi for while until do done case esac in function return local export set unset echo exit cd"), hashes, "\"'"}
	rust := &language{wordSet("as async await break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while"), cLike, "\""}
	c := &language{wordSet("auto break case char const continue default do double else enum extern float for goto if int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class public private protected new delete this true false null nullptr namespace template typename bool static_cast final abstract extends implements import package throws throw try catch finally boolean byte"), cLike, "\"'"}
	sql := &language{wordSet("select from where and or not insert into values update set delete create table index drop alter join left right inner outer on group by order having limit as null primary key"), []string{"--"}, "'\""}
	json := &language{wordSet("true false null"), nil, "\""}
	yaml := &language{wordSet("true false null yes no"), hashes, "\"'"}
	return map[string]*language{
		"go": goLang, "golang": goLang, "py": py, "python": py, "js": js, "javascript": js, "ts": js, "typescript": js,
		"jsx": js, "tsx": js, "sh": sh, "bash": sh, "shell": sh, "zsh": sh, "console": sh, "rust": rust, "rs": rust,
		"c": c, "cpp": c, "c++": c, "h": c, "java": c, "cs": c, "csharp": c, "kotlin": c, "swift": c, "sql": sql,
		"json": json, "jsonc": json, "yaml": yaml, "yml": yaml, "toml": yaml,
	}
})

// highlighter returns the function that colours one line of code in
// lang; it is the identity for languages tai does not know.
func highlighter(lang string) func(string) string {
	l := languages()[strings.ToLower(strings.TrimSpace(lang))]
	if l == nil {
		return func(s string) string { return s }
	}
	return l.line
}

// line colours one line: strings, comments to the end of the line,
// numbers and keywords. A string left open at the line's end is coloured
// to the end (multi-line strings and block comments are not followed).
func (l *language) line(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		rest := s[i:]
		if c := l.commentAt(rest); c {
			b.WriteString(styled(sgrComment, rest))
			break
		}
		ch := rest[0]
		switch {
		case strings.IndexByte(l.quotes, ch) >= 0:
			n := stringEnd(rest)
			b.WriteString(styled(sgrString, rest[:n]))
			i += n
			continue
		case isIdentStart(rune(ch)):
			n := 1
			for n < len(rest) && isIdent(rune(rest[n])) {
				n++
			}
			w := rest[:n]
			switch {
			case l.keywords[w] || l.keywords[strings.ToLower(w)] && l == languages()["sql"]:
				b.WriteString(styled(sgrKeyword, w))
			default:
				b.WriteString(w)
			}
			i += n
			continue
		case ch >= '0' && ch <= '9':
			n := 1
			for n < len(rest) && (isIdent(rune(rest[n])) || rest[n] == '.') {
				n++
			}
			b.WriteString(styled(sgrNumber, rest[:n]))
			i += n
			continue
		}
		b.WriteByte(ch)
		i++
	}
	return b.String()
}

func (l *language) commentAt(s string) bool {
	for _, c := range l.comments {
		if strings.HasPrefix(s, c) {
			return true
		}
	}
	return false
}

// stringEnd is the length of the string literal s starts with.
func stringEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(s)
}

func isIdentStart(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) }
func isIdent(r rune) bool      { return isIdentStart(r) || unicode.IsDigit(r) }
