package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Send shows the whole reply, escapes and all, and sends only on s.
func TestPerson_SendAnswers(t *testing.T) {
	for _, c := range []struct {
		typed string
		want  bool
	}{
		{"s\n", true},
		{"send\n", true},
		{"n\n", false},
		{"\n", false},
		{"maybe\ns\n", true},
	} {
		var out bytes.Buffer
		p := NewPerson(NewPlainReader(strings.NewReader(c.typed), &out), &out)
		got, err := p.Send(context.Background(), "send the model's reply to MCP server x", "│ four\x1b[2J\n│ and more")
		if err != nil || got != c.want {
			t.Errorf("typed %q: got %v, %v; want %v", c.typed, got, err, c.want)
		}
		shown := out.String()
		if strings.Contains(shown, "\x1b") || !strings.Contains(shown, "tai would send the model's reply to MCP server x\n  │ four\\x1b[2J\n  │ and more\n  "+hiddenWarning) ||
			!strings.Contains(shown, "[s] send  [n] don't send") {
			t.Errorf("typed %q: screen %q", c.typed, shown)
		}
	}
}
