package tools

import "testing"

func TestSummary(t *testing.T) {
	cases := []struct {
		desc string
		max  int
		want string
	}{
		{"Read a file. Returns its text.", 80, "Read a file."},
		{"First paragraph line one\nline two.\n\nSecond paragraph.", 80, "First paragraph line one line two."},
		{"Does it work? Yes.", 80, "Does it work?"},
		{"alpha beta gamma delta", 12, "alpha beta…"},
		{"héllo wörld ünïcode", 8, "héllo…"},
		{"evil\x1b[31m red\x07 text", 80, `evil\x1b[31m red\x07 text`},
		{"Echo.\U000E0049\U000E0047 Then more.", 80, "Echo.<U+E0049><U+E0047> Then more."},
		{"Echo back.\u200b Then more.", 80, "Echo back.<U+200B> Then more."},
		{"Echo it. Then\u200b more.", 80, "Echo it."},
		{"ab\U000E0041\U000E0042", 12, "ab<U+E0041>…"},
		{"one two\u200b", 10, "one…"},
	}
	for _, c := range cases {
		if got := Summary(c.desc, c.max); got != c.want {
			t.Errorf("Summary(%q, %d) = %q, want %q", c.desc, c.max, got, c.want)
		}
	}
}
