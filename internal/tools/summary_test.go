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
		{"evil\x1b[31m red\x07 text", 80, "evil red text"},
	}
	for _, c := range cases {
		if got := Summary(c.desc, c.max); got != c.want {
			t.Errorf("Summary(%q, %d) = %q, want %q", c.desc, c.max, got, c.want)
		}
	}
}
