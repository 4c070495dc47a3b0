package config

import "strings"

// The reference syntax, in every string [ExpandVars] expands:
//
//	${NAME}            NAME from the environment, else the vault
//	${NAME:-default}   the same, else default (taken literally, up to the first })
//	${env:NAME}        Cursor's and Windsurf's spelling of ${NAME}
//	${input:ID}        VS Code's input: the vault secret named ID
//	$${                a literal ${
//
// NAME is a letter or '_' then letters, digits or '_'. Any other ${…} is
// kept as written and refused at use time, so that a client-specific
// placeholder (${file:…}, ${/}) never reaches a server unexpanded. A '$'
// anywhere else is literal.

// refKind tells the reference forms apart.
type refKind int

const (
	refVar         refKind = iota // ${NAME}, ${NAME:-default}, ${env:NAME}
	refInput                      // ${input:ID}
	refUnsupported                // any other ${…}
)

type ref struct {
	kind   refKind
	name   string // variable name or input id; the body for refUnsupported
	def    string
	hasDef bool
	text   string // as written
}

// segment is literal text or one reference.
type segment struct {
	lit string // the text it stands for, $${ read as ${
	raw string // the literal as written
	ref *ref
}

// scan splits s into literal text and references.
func scan(s string) []segment {
	var segs []segment
	var lit strings.Builder
	start := 0 // where the current literal began in s
	flush := func(i int) {
		if i > start {
			segs = append(segs, segment{lit: lit.String(), raw: s[start:i]})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			lit.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				lit.WriteString(s[i:])
				i = len(s)
				continue
			}
			flush(i)
			text := s[i : i+2+end+1]
			segs = append(segs, segment{ref: parseRef(text)})
			i += len(text)
			start = i
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	flush(len(s))
	return segs
}

// parseRef reads the body of one ${…}.
func parseRef(text string) *ref {
	body := text[2 : len(text)-1]
	r := &ref{kind: refUnsupported, name: body, text: text}
	if id, ok := strings.CutPrefix(body, "input:"); ok {
		if id != "" {
			r.kind, r.name = refInput, id
		}
		return r
	}
	body = strings.TrimPrefix(body, "env:")
	name, def, hasDef := strings.Cut(body, ":-")
	if varName.MatchString(name) {
		r.kind, r.name, r.def, r.hasDef = refVar, name, def, hasDef
	}
	return r
}

// format writes segments back with each reference in canonical form
// (${env:NAME} becomes ${NAME}) and literal text as it was written. For any
// s, scan(format(scan(s))) equals scan(s).
func format(segs []segment) string {
	var b strings.Builder
	for _, sg := range segs {
		if sg.ref == nil {
			b.WriteString(sg.raw)
			continue
		}
		b.WriteString(sg.ref.canonical())
	}
	return b.String()
}

func (r *ref) canonical() string {
	switch {
	case r.kind == refInput:
		return "${input:" + r.name + "}"
	case r.kind == refUnsupported:
		return r.text
	case r.hasDef && (r.name == "input" || r.name == "env"):
		// ${input:-x} would read as an input, ${env:-x} as nothing.
		return "${env:" + r.name + ":-" + r.def + "}"
	case r.hasDef:
		return "${" + r.name + ":-" + r.def + "}"
	}
	return "${" + r.name + "}"
}

// canonicalRefs rewrites s in canonical form, reporting whether it changed.
func canonicalRefs(s string) (string, bool) {
	if !strings.Contains(s, "${") {
		return s, false
	}
	out := format(scan(s))
	return out, out != s
}

// rewriteEnvRefs puts every string of the entry in canonical form, which
// turns Cursor's ${env:NAME} into ${NAME}.
func (d *draft) rewriteEnvRefs() {
	changed := false
	walk(&d.e, func(_, s string) string {
		out, ok := canonicalRefs(s)
		changed = changed || ok
		return out
	})
	if changed {
		d.e.Notes = append(d.e.Notes, "${env:NAME} references rewritten as ${NAME}")
	}
}
