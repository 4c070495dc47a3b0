package textsafe

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	cases := []struct {
		name, in, block, line string
	}{
		{"plain", "go test ./...", "go test ./...", "go test ./..."},
		{"unicode letters stay", "keep ünïcode ✓ 日本", "keep ünïcode ✓ 日本", "keep ünïcode ✓ 日本"},
		{"line break and tab", "a\n\tb", "a\n\tb", `a\n\tb`},
		{"carriage return", "safe\rrm -rf ~", `safe\rrm -rf ~`, `safe\rrm -rf ~`},
		{"osc with its content", "go test ./...\x1b]0;\ntouch PWNED # ...\x07",
			"go test ./...\\x1b]0;\ntouch PWNED # ...\\x07", `go test ./...\x1b]0;\ntouch PWNED # ...\x07`},
		{"csi", "\x1b[2J\x1b[Hhome", `\x1b[2J\x1b[Hhome`, `\x1b[2J\x1b[Hhome`},
		{"other c0 and del", "\x00\x08\x0b\x0c\x7f", `\x00\x08\x0b\x0c\x7f`, `\x00\x08\x0b\x0c\x7f`},
		{"c1 controls", "\u009b31m \u009d0;t\u009c", "<U+009B>31m <U+009D>0;t<U+009C>", "<U+009B>31m <U+009D>0;t<U+009C>"},
		{"unicode tags", "ok\U000E0001\U000E0049\U000E007F", "ok<U+E0001><U+E0049><U+E007F>", "ok<U+E0001><U+E0049><U+E007F>"},
		{"zero width", "a\u200bb\u200cc\u200dd\u2060e\ufefff", "a<U+200B>b<U+200C>c<U+200D>d<U+2060>e<U+FEFF>f", "a<U+200B>b<U+200C>c<U+200D>d<U+2060>e<U+FEFF>f"},
		{"bidi controls", "\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c", "<U+202E>evil<U+202C> <U+2066>x<U+2069> <U+200E><U+200F><U+061C>", "<U+202E>evil<U+202C> <U+2066>x<U+2069> <U+200E><U+200F><U+061C>"},
		{"soft hyphen", "rm\u00ad -rf", "rm<U+00AD> -rf", "rm<U+00AD> -rf"},
		{"variation selectors", "\u2764\ufe0f x\U000E0100", "\u2764<U+FE0F> x<U+E0100>", "\u2764<U+FE0F> x<U+E0100>"},
		{"other spaces", "a\u00a0b\u3000c\u2009d", "a<U+00A0>b<U+3000>c<U+2009>d", "a<U+00A0>b<U+3000>c<U+2009>d"},
		{"line separators", "a\u2028b\u2029c\u0085", "a<U+2028>b<U+2029>c<U+0085>", "a<U+2028>b<U+2029>c<U+0085>"},
		{"blank fillers", "\u3164\u115f\u034f\u2800", "<U+3164><U+115F><U+034F><U+2800>", "<U+3164><U+115F><U+034F><U+2800>"},
		{"private use and unassigned", "\ue000\U0010FFFD\U000E0080\uffff", "<U+E000><U+10FFFD><U+E0080><U+FFFF>", "<U+E000><U+10FFFD><U+E0080><U+FFFF>"},
		{"invalid utf-8", "bad \xff\xc3 \xed\xa0\x80 end", `bad \xff\xc3 \xed\xa0\x80 end`, `bad \xff\xc3 \xed\xa0\x80 end`},
		{"replacement character itself", "\ufffd", "\ufffd", "\ufffd"},
		{"backslashes as they are", `printf 'a\nb'`, `printf 'a\nb'`, `printf 'a\nb'`},
		{"empty", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Visible(c.in); got != c.block {
				t.Errorf("Visible(%q) = %q, want %q", c.in, got, c.block)
			}
			if got := VisibleLine(c.in); got != c.line {
				t.Errorf("VisibleLine(%q) = %q, want %q", c.in, got, c.line)
			}
			if got, want := Hidden(c.in), c.line != c.in; got != want {
				t.Errorf("Hidden(%q) = %v, want %v", c.in, got, want)
			}
		})
	}
}

func TestVisibleMax(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"abcdef", 3, "abc…"},
		{"abc", 3, "abc"},
		{"ab\x1bcd", 3, "ab…"}, // \x1b is four runes: not cut in two
		{"ab\x1bcd", 6, `ab\x1b…`},
		{"a\U000E0041", 1, "a…"},
		{"a\U000E0041", 10, "a<U+E0041>"},
		{"x", 0, "…"},
	}
	for _, c := range cases {
		if got := VisibleMax(c.in, c.max); got != c.want {
			t.Errorf("VisibleMax(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// FuzzVisible checks that nothing is dropped: every rune or byte of the
// input is one piece, shown either as itself (when it can be seen) or as
// an escape that decodes back to exactly it; and the output holds no
// character that would be invisible or act on the terminal.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"x\x1b[31my", "\x1b]0;\ntouch PWNED\x07", "a\U000E0041\u200b\ufeff", "\xff\xfe", "\u202e\r\t\n", `\x1b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range []bool{false, true} {
			var ins, outs strings.Builder
			pieces(s, line, func(in, out string) bool {
				ins.WriteString(in)
				outs.WriteString(out)
				if out != in {
					if back, ok := unescape(out); !ok || back != in {
						t.Fatalf("%q is shown as %q, which does not decode back to it", in, out)
					}
				} else if r, _ := utf8.DecodeRuneInString(in); needsEscape(r, line) || !utf8.ValidString(in) {
					t.Fatalf("%q is shown as itself", in)
				}
				return true
			})
			if ins.String() != s {
				t.Fatalf("the pieces of %q put together are %q", s, ins.String())
			}
			got := render(s, line, -1)
			if got != outs.String() {
				t.Fatalf("render(%q) = %q, pieces give %q", s, got, outs.String())
			}
			if !utf8.ValidString(got) {
				t.Fatalf("the rendering of %q is not UTF-8: %q", s, got)
			}
			for _, r := range got {
				if r == '\n' || r == '\t' {
					if line {
						t.Fatalf("VisibleLine(%q) holds %U", s, r)
					}
					continue
				}
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || !unicode.IsGraphic(r) || unicode.Is(unicode.Variation_Selector, r) {
					t.Fatalf("the rendering of %q holds %U", s, r)
				}
			}
			if render(got, line, -1) != got {
				t.Fatalf("rendering %q twice changes it", s)
			}
		}
		if Hidden(s) != (VisibleLine(s) != s) {
			t.Fatalf("Hidden(%q) = %v disagrees with VisibleLine", s, Hidden(s))
		}
	})
}

// unescape decodes one escape as [pieces] writes it.
func unescape(out string) (string, bool) {
	switch {
	case out == `\n`:
		return "\n", true
	case out == `\r`:
		return "\r", true
	case out == `\t`:
		return "\t", true
	case len(out) == 4 && strings.HasPrefix(out, `\x`):
		b, err := strconv.ParseUint(out[2:], 16, 8)
		return string([]byte{byte(b)}), err == nil
	case strings.HasPrefix(out, "<U+") && strings.HasSuffix(out, ">"):
		r, err := strconv.ParseUint(out[3:len(out)-1], 16, 32)
		return string(rune(r)), err == nil && len(out) >= len("<U+0000>")
	}
	return "", false
}
