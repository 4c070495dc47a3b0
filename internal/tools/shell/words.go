package shell

import (
	"errors"
	"fmt"
	"strings"
)

// A word is one shell word after quote removal.
type word struct {
	text string
	// dynamic: the word holds an expansion ($x, $(…), `…`) whose value is
	// known only when the command runs.
	dynamic bool
	// glob: the word holds an unquoted *, ?, [ or {, so its value depends on
	// the files present (a file named "-delete" matches *).
	glob bool
	// assign: NAME=… with NAME unquoted; in command position an assignment.
	assign bool
}

// A command is one simple command's words, redirections removed.
type command []word

// scanner splits a command line into simple commands, the way /bin/sh
// would, for the read-only check. It understands quoting, escapes,
// separators, subshells, command substitution and redirections, and refuses
// what it does not need to understand (here-documents, ${…}, process
// substitution).
type scanner struct {
	s    string
	i    int
	cmds []command // every simple command, including those in substitutions
	cur  command
	// inputs are the targets of input redirections (< file): files read.
	inputs []word
}

// parseLine returns every simple command in line, or why line is not
// something the read-only check can vouch for.
func parseLine(line string) ([]command, error) {
	sc := &scanner{s: line}
	if err := sc.list(false); err != nil {
		return nil, err
	}
	return sc.cmds, nil
}

// list scans commands until the end of input, or, in a substitution, until
// its closing parenthesis.
func (sc *scanner) list(sub bool) error {
	depth := 0
	for {
		if sc.i >= len(sc.s) {
			switch {
			case sub:
				return errors.New("unterminated $(")
			case depth > 0:
				return errors.New("unbalanced (")
			}
			sc.end()
			return nil
		}
		switch c := sc.s[sc.i]; c {
		case ' ', '\t':
			sc.i++
		case '&':
			if sc.at(1) == '>' {
				if err := sc.redirect(); err != nil {
					return err
				}
				continue
			}
			sc.end()
			sc.i++
		case '\n', ';', '|':
			sc.end()
			sc.i++
		case '(':
			if len(sc.cur) > 0 {
				return errors.New("unexpected (")
			}
			depth++
			sc.i++
		case ')':
			sc.end()
			sc.i++
			if depth == 0 {
				if sub {
					return nil
				}
				return errors.New("unbalanced )")
			}
			depth--
		case '<', '>':
			if err := sc.redirect(); err != nil {
				return err
			}
		case '#':
			for sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
				sc.i++
			}
		default:
			start := sc.i
			w, err := sc.word()
			if err != nil {
				return err
			}
			if c := sc.at(0); (c == '<' || c == '>') && isDigits(sc.s[start:sc.i]) {
				continue // a file descriptor number: the redirection follows
			}
			sc.cur = append(sc.cur, w)
		}
	}
}

// end closes the current simple command.
func (sc *scanner) end() {
	if len(sc.cur) > 0 {
		sc.cmds = append(sc.cmds, sc.cur)
		sc.cur = nil
	}
}

// at returns the byte k past the cursor, or 0 past the end.
func (sc *scanner) at(k int) byte {
	if sc.i+k < len(sc.s) {
		return sc.s[sc.i+k]
	}
	return 0
}

// word scans one word from the cursor.
func (sc *scanner) word() (word, error) {
	var b strings.Builder
	var w word
	start := sc.i
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		switch {
		case strings.IndexByte(" \t\n;&|()<>", c) >= 0:
			return sc.finish(w, b.String(), start), nil
		case c == '\\':
			switch next := sc.at(1); next {
			case 0:
				b.WriteByte('\\')
				sc.i++
			case '\n':
				sc.i += 2
			default:
				b.WriteByte(next)
				sc.i += 2
			}
		case c == '\'':
			j := strings.IndexByte(sc.s[sc.i+1:], '\'')
			if j < 0 {
				return w, errors.New("unterminated '")
			}
			b.WriteString(sc.s[sc.i+1 : sc.i+1+j])
			sc.i += j + 2
		case c == '"':
			if err := sc.doubleQuoted(&b, &w); err != nil {
				return w, err
			}
		case c == '$':
			if err := sc.dollar(&b, &w, false); err != nil {
				return w, err
			}
		case c == '`':
			if err := sc.backquoted(&b, &w); err != nil {
				return w, err
			}
		default:
			if strings.IndexByte("*?[{", c) >= 0 {
				w.glob = true
			}
			b.WriteByte(c)
			sc.i++
		}
	}
	return sc.finish(w, b.String(), start), nil
}

func (sc *scanner) finish(w word, text string, start int) word {
	w.text = text
	raw := sc.s[start:sc.i]
	if eq := strings.IndexByte(raw, '='); eq > 0 && isName(raw[:eq]) {
		w.assign = true
	}
	return w
}

// doubleQuoted scans "…", where only \, $ and ` are special.
func (sc *scanner) doubleQuoted(b *strings.Builder, w *word) error {
	sc.i++
	for sc.i < len(sc.s) {
		switch c := sc.s[sc.i]; c {
		case '"':
			sc.i++
			return nil
		case '\\':
			switch next := sc.at(1); next {
			case '$', '`', '"', '\\':
				b.WriteByte(next)
				sc.i += 2
			case '\n':
				sc.i += 2
			default:
				b.WriteByte('\\')
				sc.i++
			}
		case '$':
			if err := sc.dollar(b, w, true); err != nil {
				return err
			}
		case '`':
			if err := sc.backquoted(b, w); err != nil {
				return err
			}
		default:
			b.WriteByte(c)
			sc.i++
		}
	}
	return errors.New(`unterminated "`)
}

// dollar scans an expansion starting at '$'.
func (sc *scanner) dollar(b *strings.Builder, w *word, quoted bool) error {
	next := sc.at(1)
	switch {
	case next == '(':
		inner := &scanner{s: sc.s, i: sc.i + 2}
		if err := inner.list(true); err != nil {
			return err
		}
		b.WriteString(sc.s[sc.i:inner.i])
		sc.cmds = append(sc.cmds, inner.cmds...)
		sc.i = inner.i
		w.dynamic = true
	case next == '{':
		return errors.New("${…} expansion")
	case isNameByte(next):
		j := sc.i + 1
		for j < len(sc.s) && (isNameByte(sc.s[j]) || isDigit(sc.s[j])) {
			j++
		}
		b.WriteString(sc.s[sc.i:j])
		sc.i = j
		w.dynamic = true
	case isDigit(next) || strings.IndexByte("?@*#$!-", next) >= 0:
		b.WriteString(sc.s[sc.i : sc.i+2])
		sc.i += 2
		w.dynamic = true
	case (next == '\'' || next == '"') && !quoted:
		// $'…' and $"…" (bash): the quote that follows is scanned as usual.
		sc.i++
		w.dynamic = true
	default:
		b.WriteByte('$')
		sc.i++
	}
	return nil
}

// backquoted scans `…`, whose body is a command line of its own.
func (sc *scanner) backquoted(b *strings.Builder, w *word) error {
	var body strings.Builder
	for j := sc.i + 1; j < len(sc.s); j++ {
		switch c := sc.s[j]; {
		case c == '\\' && j+1 < len(sc.s):
			if next := sc.s[j+1]; next == '\\' || next == '`' || next == '$' {
				body.WriteByte(next)
			} else {
				body.WriteByte(c)
				body.WriteByte(next)
			}
			j++
		case c == '`':
			cmds, err := parseLine(body.String())
			if err != nil {
				return err
			}
			sc.cmds = append(sc.cmds, cmds...)
			b.WriteString(sc.s[sc.i : j+1])
			sc.i = j + 1
			w.dynamic = true
			return nil
		default:
			body.WriteByte(c)
		}
	}
	return errors.New("unterminated `")
}

// redirect scans a redirection at the cursor. Reading a file and
// duplicating a descriptor are read-only; writing anywhere but /dev/null,
// here-documents and network paths are not.
func (sc *scanner) redirect() error {
	op := ""
	for _, o := range []string{"&>>", "&>", "<<", "<>", "<&", "<(", ">>", ">|", ">&", ">(", "<", ">"} {
		if strings.HasPrefix(sc.s[sc.i:], o) {
			op = o
			break
		}
	}
	sc.i += len(op)
	switch op {
	case "<<":
		return errors.New("here-document")
	case "<(", ">(":
		return errors.New("process substitution")
	case "<>":
		return errors.New("redirection opening a file for writing")
	}
	for sc.at(0) == ' ' || sc.at(0) == '\t' {
		sc.i++
	}
	if c := sc.at(0); c == 0 || strings.IndexByte("\n;&|()<>", c) >= 0 {
		return fmt.Errorf("redirection %s without a target", op)
	}
	target, err := sc.word()
	if err != nil {
		return err
	}
	fixed := !target.dynamic && !target.glob
	switch {
	case op == "<" && fixed && !strings.HasPrefix(target.text, "/dev/tcp/") && !strings.HasPrefix(target.text, "/dev/udp/"):
		sc.inputs = append(sc.inputs, target)
		return nil
	case (op == "<&" || op == ">&") && fixed && (isDigits(target.text) || target.text == "-"):
		return nil
	case op != "<" && op != "<&" && fixed && target.text == "/dev/null":
		return nil
	case op == "<" || op == "<&":
		return fmt.Errorf("input redirection from %s", target.text)
	}
	return fmt.Errorf("redirection to a file (%s %s)", op, target.text)
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isNameByte(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// isName reports whether s is a shell variable name.
func isName(s string) bool {
	for i := range len(s) {
		if !isNameByte(s[i]) && (i == 0 || !isDigit(s[i])) {
			return false
		}
	}
	return s != ""
}
