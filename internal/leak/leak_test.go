package leak

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// key holds '~' and '?', whose base64 uses '+' and '/', so the two
// alphabets differ, and characters that URLs and JSON escape.
const key = "sk-test-~~~???0123<&>456789abcdef"

var secrets = map[string]string{
	"OPENAI_API_KEY": key,
	"GITHUB_TOKEN":   "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
	"SHORT":          "hunter2",
}

func b64(s string) string  { return base64.StdEncoding.EncodeToString([]byte(s)) }
func b64u(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
func hx(s string) string   { return hex.EncodeToString([]byte(s)) }

func pctAll(s string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

func jsonU(s string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, `\u%04x`, u)
	}
	return b.String()
}

func mime(s string) string {
	e := b64(s)
	var b strings.Builder
	for len(e) > 76 {
		b.WriteString(e[:76] + "\r\n")
		e = e[76:]
	}
	return b.String() + e
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestFind_Encodings(t *testing.T) {
	const pad = "some text around it, "
	cases := []struct {
		name, text, how string
	}{
		{"plain", "GET /?d=" + key, "as is"},
		{"upper case", strings.ToUpper(key), "as is"},
		{"reversed", "x" + reverse(key) + "x", "reversed"},
		{"hex lower", hx(pad + key), "hex"},
		{"hex upper", strings.ToUpper(hx(pad + key)), "hex"},
		{"hex mixed case", mixCase(hx(key)), "hex"},
		{"hex in groups", groups(hx(key), 4), "hex, after removing whitespace"},
		{"hex with \\x", strings.ReplaceAll(" "+groups(hx(key), 2), " ", `\x`), "as is, after JSON unescaping"},
		{"hex then reversed", reverse(hx(key)), "hex then reversed"},
		{"reversed then hex", hx(reverse(key)), "reversed then hex"},
		{"base64 alone", b64(key), "base64"},
		{"base64 aligned 1", b64("a" + key + "z"), "base64"},
		{"base64 aligned 2", b64("ab" + key), "base64"},
		{"base64 padded, in JSON", `{"d":"` + b64(key) + `"}`, "base64"},
		{"base64url aligned 0", b64u(key), "base64url"},
		{"base64url aligned 1", b64u("{" + key + "}"), "base64url"},
		{"base64url aligned 2", b64u("{\"" + key), "base64url"},
		{"mime base64", mime(strings.Repeat(pad, 5) + key + pad), "base64, after removing whitespace"},
		{"mime base64 in JSON", jsonString(mime(strings.Repeat("x", 54) + key)), "base64, after JSON unescaping and removing whitespace"},
		{"base64 then reversed", reverse(b64(pad + key)), "base64 then reversed"},
		{"reversed then base64", b64(pad + reverse(key)), "reversed then base64"},
		{"hex then base64", b64(hx(key)), "hex then base64"},
		{"upper hex then base64", b64u(pad + strings.ToUpper(hx(key))), "hex then base64"},
		{"base64 then hex", hx(pad + b64(pad+key)), "base64 then hex"},
		{"base64 twice", b64(pad + b64(pad+key)), "base64 then base64"},
		{"percent, fully", "https://x.example/?d=" + pctAll(key), "as is, after percent-decoding"},
		{"percent, lower case hex", strings.ToLower(pctAll(key)), "as is, after percent-decoding"},
		{"percent, query escape", "https://x.example/?d=" + url.QueryEscape(key), "as is, after percent-decoding"},
		{"percent, path escape", "https://x.example/" + url.PathEscape(key) + "/x", "as is, after percent-decoding"},
		{"percent of base64", "/?d=" + url.QueryEscape(b64(key)), "base64, after percent-decoding"},
		{"percent twice", pctAll(pctAll(key)), "as is, after percent-decoding twice"},
		{"json \\u escapes", `{"d": "` + jsonU(key) + `"}`, "as is, after JSON unescaping"},
		{"json marshal", jsonString(key), "as is, after JSON unescaping"},
		{"percent inside JSON", `{"u": "` + jsonU("https://x/?d="+url.QueryEscape(key)) + `"}`, "as is, after JSON unescaping, then percent-decoding"},
		{"reversed, percent", pctAll(reverse(key)), "reversed, after percent-decoding"},
		{"the other secret", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a", ""},
	}
	x := NewIndex(secrets)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name, how, ok := x.Find(c.text)
			wantName := "OPENAI_API_KEY"
			if c.how == "" {
				wantName, c.how = "GITHUB_TOKEN", "as is"
			}
			if !ok || name != wantName || how != c.how {
				t.Errorf("Find(%.60q…) = %q, %q, %v; want %q, %q", c.text, name, how, ok, wantName, c.how)
			}
			if n, h, ok := Find(c.text, secrets); n != name || h != how || !ok {
				t.Errorf("Find and Index.Find disagree: %q %q %v", n, h, ok)
			}
		})
	}
}

func mixCase(s string) string {
	b := []byte(s)
	for i := range b {
		if i%2 == 0 {
			b[i] = strings.ToUpper(string(b[i]))[0]
		}
	}
	return string(b)
}

func groups(s string, n int) string {
	var parts []string
	for len(s) > n {
		parts = append(parts, s[:n])
		s = s[n:]
	}
	return strings.Join(append(parts, s), " ")
}

func TestFind_NothingFalse(t *testing.T) {
	x := NewIndex(secrets)
	cases := map[string]string{
		"ordinary text":      "The quick brown fox jumps over the lazy dog; see https://example.com/?q=go+test&page=2.",
		"a short prefix":     key[:7] + " " + key[:12],
		"a changed byte":     strings.Replace(key, "abcdef", "abcdeF0", 1)[:len(key)-1] + "X",
		"base64 of a prefix": b64(key[:10]),
		"hex of a prefix":    hx(key[:12]),
		"short secret":       "the password is hunter2, " + b64("hunter2") + " " + hx("hunter2"),
		"empty":              "",
		"json noise":         `{"a": "\u00e9\ud83d\ude00 \x41 %zz %4 \\", "b": "\u12"}`,
	}
	for name, text := range cases {
		if n, how, ok := x.Find(text); ok {
			t.Errorf("%s: found %s (%s) in %q", name, n, how, text)
		}
	}
}

// The repository's own sources and docs, base64 and hex of them, carry no
// secret: the needles are specific enough for real text.
func TestFind_RepositoryTextIsClean(t *testing.T) {
	x := NewIndex(manySecrets(50))
	files, _ := filepath.Glob("../../docs/*.md")
	more, _ := filepath.Glob("../*/*.go")
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("found only %d files to check", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{string(b), mime(string(b)), hx(string(b))} {
			if n, how, ok := x.Find(text); ok {
				t.Errorf("%s: found %s (%s)", f, n, how)
			}
		}
	}
}

// manySecrets returns n keys shaped like real ones (a prefix and random
// alphanumerics), deterministic for the test.
func manySecrets(n int) map[string]string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	out := map[string]string{}
	seed := uint64(42)
	for i := range n {
		b := []byte(fmt.Sprintf("sk-%02d-", i))
		for range 40 {
			seed = seed*6364136223846793005 + 1442695040888963407
			b = append(b, alnum[seed>>58%uint64(len(alnum))])
		}
		out[fmt.Sprintf("KEY_%02d", i)] = string(b)
	}
	return out
}

func TestIndex_ShortValuesLeftOut(t *testing.T) {
	x := NewIndex(map[string]string{"A": "1234567", "B": "12345678", "C": ""})
	if x.Len() != 1 {
		t.Fatalf("Len = %d, want 1 (only B is at least %d bytes)", x.Len(), MinLen)
	}
	if n, _, ok := x.Find("x12345678x"); !ok || n != "B" {
		t.Errorf("eight bytes: got %q %v", n, ok)
	}
	if _, _, ok := NewIndex(nil).Find(key); ok {
		t.Error("an empty index found something")
	}
}

// FuzzFind checks that a secret embedded anywhere in a text is found
// whichever encoding the whole text goes through, and that no input
// makes Find panic.
func FuzzFind(f *testing.F) {
	f.Add("prefix ", key, " suffix", uint8(0))
	f.Add("", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "", uint8(3))
	f.Add("\\u00", "%41%42%43%44%45", "\\", uint8(7))
	f.Fuzz(func(t *testing.T, before, secret, after string, enc uint8) {
		x := NewIndex(map[string]string{"S": secret})
		text := before + secret + after
		encoded := []func(string) string{
			func(s string) string { return s },
			reverse,
			hx,
			func(s string) string { return strings.ToUpper(hx(s)) },
			b64,
			b64u,
			mime,
			pctAll,
			jsonU,
			func(s string) string { return b64(reverse(s)) },
			func(s string) string { return reverse(b64(s)) },
			func(s string) string { return b64(hx(s)) },
			func(s string) string { return hx(b64(s)) },
			func(s string) string { return b64u(b64(s)) },
		}[int(enc)%14](text)
		name, how, ok := x.Find(encoded)
		if int(enc)%14 == 8 && !utf8.ValidString(text) {
			return // JSON strings hold Unicode text only
		}
		if len(secret) < MinLen {
			if ok {
				t.Fatalf("a %d-byte secret was looked for", len(secret))
			}
			return
		}
		if !ok || name != "S" {
			t.Fatalf("encoding %d of %q: not found (got %q %q)", int(enc)%14, text, name, how)
		}
	})
}

func BenchmarkFind(b *testing.B) {
	x := NewIndex(manySecrets(40))
	body, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		b.Fatal(err)
	}
	for len(body) < 1<<20 {
		body = append(body, body...)
	}
	bodies := map[string]string{
		"text-1MiB": string(body[:1<<20]),
		"json-1MiB": jsonString(string(body))[:1<<20],
		"b64-1MiB":  mime(string(body))[:1<<20],
	}
	for name, s := range bodies {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if n, how, ok := x.Find(s); ok {
					b.Fatalf("found %s (%s)", n, how)
				}
			}
		})
	}
	// The alternative measured: strings.Contains for every needle (exact
	// case only, so it does less than Find), on the text as sent.
	b.Run("contains-text-1MiB", func(b *testing.B) {
		s := bodies["text-1MiB"]
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			for _, n := range x.needles {
				if strings.Contains(s, n.text) {
					b.Fatal("found")
				}
			}
		}
	})
	b.Run("build-40", func(b *testing.B) {
		for b.Loop() {
			NewIndex(manySecrets(40))
		}
	})
}
