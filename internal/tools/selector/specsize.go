package selector

import "encoding/json"

// specBytes is SpecBytes(d.t), without a second pass of the JSON scanner
// over a schema newDoc has already read: the schema is then valid JSON,
// so its compacted size is counted directly (compactLen).
func (d *doc) specBytes() int {
	if !d.parsed {
		return SpecBytes(d.t)
	}
	name, _ := json.Marshal(d.t.Name) // a string always marshals
	desc, _ := json.Marshal(d.t.Description)
	return len(`{"name":,"description":,"parameters":}`) + len(name) + len(desc) + compactLen(d.t.Schema)
}

// compactLen is the size of valid JSON js as json.Marshal writes it for a
// json.RawMessage: white space outside strings dropped, and <, >, &, U+2028
// and U+2029 written as \u escapes (HTML-safe, as Marshal escapes).
func compactLen(js []byte) int {
	n := 0
	str, esc := false, false
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case str:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				str = false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '"':
			str = true
		}
		n++
		switch {
		case c == '<' || c == '>' || c == '&':
			n += len(`\u003c`) - 1
		case c == 0xE2 && i+2 < len(js) && js[i+1] == 0x80 && js[i+2]&^1 == 0xA8:
			n += len(`\u2028`) - 3 // its three bytes are counted as they come
		}
	}
	return n
}
