package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tai/internal/agent"
	"tai/internal/tools"
)

func TestPerson_ConsentAnswers(t *testing.T) {
	consent := tools.Consent{Title: "shell rm -rf \x1b[2Jbuild", Detail: "in /tmp\n\x1b]0;owned\x07line two", Server: "gh\x07", Always: []tools.Grant{{Kind: tools.GrantCommand, Subject: "rm"}}}
	cases := []struct {
		typed       string
		allowServer bool
		want        agent.Decision
	}{
		{"y\n", false, agent.AllowOnce},
		{"always\n", false, agent.AllowToolAlways},
		{"s\n", true, agent.AllowServerAlways},
		{"s\nn\n", false, agent.Deny}, // s is not offered: asked again
		{"\n", false, agent.Deny},
		{"what\nY\n", false, agent.AllowOnce},
	}
	for _, c := range cases {
		var out bytes.Buffer
		p := NewPerson(NewPlainReader(strings.NewReader(c.typed), &out), &out)
		d, err := p.Consent(context.Background(), consent, c.allowServer)
		if err != nil || d != c.want {
			t.Errorf("typed %q: got %v, %v; want %v", c.typed, d, err, c.want)
		}
		shown := out.String()
		if strings.ContainsAny(shown, "\x1b\x07") {
			t.Errorf("typed %q: control characters reached the screen: %q", c.typed, shown)
		}
		if !strings.Contains(shown, "tai wants to run: shell rm -rf build") || !strings.Contains(shown, "  line two") {
			t.Errorf("typed %q: screen %q", c.typed, shown)
		}
		if got := strings.Contains(shown, "[s] always for server gh"); got != c.allowServer {
			t.Errorf("typed %q: server choice shown = %v", c.typed, got)
		}
	}
}

func TestPerson_NoAlwaysWithoutSubject(t *testing.T) {
	var out bytes.Buffer
	p := NewPerson(NewPlainReader(strings.NewReader("a\ny\n"), &out), &out)
	d, err := p.Consent(context.Background(), tools.Consent{Title: "register server x", Server: "x"}, true)
	if err != nil || d != agent.AllowOnce {
		t.Fatalf("got %v, %v; want allow once after a refused 'a'", d, err)
	}
	if s := out.String(); strings.Contains(s, "always") || !strings.Contains(s, "allow? (y/n)") {
		t.Fatalf("screen %q", s)
	}
}

func TestPerson_ConsentWithInputClosed(t *testing.T) {
	var out bytes.Buffer
	p := NewPerson(NewPlainReader(strings.NewReader(""), &out), &out)
	if d, err := p.Consent(context.Background(), tools.Consent{Title: "x"}, false); err == nil || d != agent.Deny {
		t.Fatalf("got %v, %v; want a denial with an error", d, err)
	}
}

func TestPerson_AskNumbersChoices(t *testing.T) {
	for typed, want := range map[string]string{"2\n": "blue", "green\n": "green", "7\n": "7"} {
		var out bytes.Buffer
		p := NewPerson(NewPlainReader(strings.NewReader(typed), &out), &out)
		got, err := p.Ask(context.Background(), "Which \x1b[5mcolour?", []string{"red", "blue"})
		if err != nil || got != want {
			t.Errorf("typed %q: got %q, %v; want %q", typed, got, err, want)
		}
		if !strings.Contains(out.String(), "Which colour?\n  1. red\n  2. blue\n") {
			t.Errorf("screen %q", out.String())
		}
	}
}
