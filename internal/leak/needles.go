package leak

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// form is one way a secret can appear in text, described by how for the
// person reading why a request was refused.
type form struct {
	text string
	fold bool
	how  string
}

// alphabets are the base64 alphabets looked for. Padding never matters:
// only the characters every encoding of the secret shares are used.
var alphabets = []struct {
	name string
	enc  *base64.Encoding
}{
	{"base64", base64.RawStdEncoding},
	{"base64url", base64.RawURLEncoding},
}

// forms lists the needles for secret value v. Which mixes are included,
// and why:
//
//   - as is and reversed (rev, or a model told to write it backwards),
//     case-insensitively (tr a-z A-Z loses nothing an attacker needs);
//   - hex of each, in any letter case (xxd -p, od, printf %x), and
//     reversed after encoding (xxd -p | rev);
//   - base64 of each in both alphabets at the three alignments a secret
//     can have inside a longer encoded text, and reversed after encoding;
//   - two-step mixes one shell pipeline away: base64 of the hex, hex of
//     the base64, and base64 twice.
//
// Percent-encoding, JSON string escapes and line wrapping are undone on
// the text instead (views.go), so they combine with every form here.
// Not looked for: compression, encryption, base32, ROT13 and other
// ciphers, and hex dumps with offsets every 16 bytes (xxd's default), which
// split the hex; a determined attacker with a shell can always invent an
// encoding, which is why the shell and the network ask first.
func forms(v string) []form {
	var out []form
	for _, base := range []struct{ text, how string }{{v, ""}, {reverse(v), "reversed"}} {
		then := func(step string) string {
			if base.how == "" {
				return step
			}
			return base.how + " then " + step
		}
		plain := "as is"
		if base.how != "" {
			plain = base.how
		}
		out = append(out, form{base.text, true, plain})
		h := hex.EncodeToString([]byte(base.text))
		out = append(out,
			form{h, true, then("hex")},
			form{reverse(h), true, then("hex then reversed")})
		for _, a := range alphabets {
			for _, m := range middles(base.text, a.enc) {
				out = append(out,
					form{m, false, then(a.name)},
					form{reverse(m), false, then(a.name + " then reversed")},
					form{hex.EncodeToString([]byte(m)), true, then(a.name + " then hex")})
				for _, b := range alphabets {
					for _, mm := range middles(m, b.enc) {
						out = append(out, form{mm, false, then(a.name + " then " + b.name)})
					}
				}
			}
			for _, hx := range []string{h, strings.ToUpper(h)} {
				for _, m := range middles(hx, a.enc) {
					out = append(out, form{m, false, then("hex then " + a.name)})
				}
			}
		}
	}
	return out
}

// middles returns the base64 characters that encode s wherever it sits
// in a longer encoded text. A secret starting k bytes (mod 3) into the
// encoded data shares its first and last characters with its neighbours;
// the characters in between depend on the secret alone, so each of the
// three alignments gives one fixed string to look for.
func middles(s string, enc *base64.Encoding) []string {
	out := make([]string, 0, 3)
	for k := range 3 {
		full := enc.EncodeToString(append(make([]byte, k), s...))
		first := (8*k + 5) / 6       // the first character with no bit from before s
		last := 8 * (k + len(s)) / 6 // the characters before it have no bit from after s
		out = append(out, full[first:last])
	}
	return out
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
