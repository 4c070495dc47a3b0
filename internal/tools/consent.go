package tools

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// digestMax caps the argument digest of the default approval screen.
const digestMax = 2000

// ConsentFor is what the approval screen shows for call: t.ConsentIn if set,
// else t.Consent, else the tool name and a digest of the arguments.
func (t *Tool) ConsentFor(call Call) Consent {
	switch {
	case t.ConsentIn != nil:
		return t.ConsentIn(call)
	case t.Consent != nil:
		return t.Consent(call.Args)
	}
	return Consent{Title: t.Name, Detail: argDigest(call.Args), Server: t.Server}
}

// argDigest is the arguments as compact JSON, cut at digestMax bytes.
func argDigest(args json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		b.Reset()
		b.Write(args)
	}
	s := b.String()
	if len(s) <= digestMax {
		return s
	}
	cut := digestMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (arguments cut)"
}
