package tools

import (
	"bytes"
	"encoding/json"
	"tai/internal/textsafe"
)

// digestMax caps the argument digest of the default approval screen.
const digestMax = 2000

// ConsentFor is what the approval screen shows for call: t.Consent's
// description, else the tool name and a digest of the arguments.
func (t *Tool) ConsentFor(call Call) Consent {
	if t.Consent != nil {
		return t.Consent(call)
	}
	return t.digestConsent(call)
}

func (t *Tool) digestConsent(call Call) Consent {
	return Consent{Title: t.Name, Detail: CompactArgs(t.Shown(call.Args), digestMax), Server: t.Server}
}

// hiddenValue replaces the value of a Hidden argument in Shown.
const hiddenValue = `"[hidden]"`

// Shown is args with the value of every Hidden argument replaced by
// "[hidden]": what a host may show, log or digest. Arguments that are not
// a JSON object are shown as they are only when t hides nothing.
func (t *Tool) Shown(args json.RawMessage) json.RawMessage {
	if len(t.Hidden) == 0 {
		return args
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return json.RawMessage(hiddenValue)
	}
	for _, name := range t.Hidden {
		if _, ok := m[name]; ok {
			m[name] = json.RawMessage(hiddenValue)
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// CompactArgs is the arguments as compact JSON for a consent screen, cut
// at max bytes on a character boundary (invalid JSON is shown as sent).
func CompactArgs(args json.RawMessage, max int) string {
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		b.Reset()
		b.Write(args)
	}
	s := b.String()
	if len(s) <= max {
		return s
	}
	return textsafe.Head(s, max) + "… (arguments cut)"
}
