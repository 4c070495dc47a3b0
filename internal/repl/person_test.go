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
		if !strings.Contains(shown, `tai wants to run: shell rm -rf \x1b[2Jbuild`) || !strings.Contains(shown, "  in /tmp\n  \\x1b]0;owned\\x07line two\n") ||
			!strings.Contains(shown, "\n  "+hiddenWarning+"\n") {
			t.Errorf("typed %q: screen %q", c.typed, shown)
		}
		if got := strings.Contains(shown, `[s] always for server gh\x07`); got != c.allowServer {
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

// Every character of what is approved is on the screen: invisible ones
// as escapes, a trailing carriage return too; plain text gets no warning.
func TestPerson_ConsentShowsEveryCharacter(t *testing.T) {
	cases := []struct {
		c      tools.Consent
		want   string
		warned bool
	}{
		{tools.Consent{Title: "shell: ls", Detail: "ls -la\n"}, "tai wants to run: shell: ls\n  ls -la\n", false},
		{tools.Consent{Title: "shell: ls", Detail: "ls\u00a0-la\r"}, "  ls<U+00A0>-la\\r\n", true},
		{tools.Consent{Title: "mcp x/y\U000E0041", Detail: "{}"}, "tai wants to run: mcp x/y<U+E0041>\n", true},
		{tools.Consent{Title: "write_file", Detail: "--- a\n+++ b\n+\tx\u200b"}, "  +\tx<U+200B>\n", true},
	}
	for _, c := range cases {
		var out bytes.Buffer
		p := NewPerson(NewPlainReader(strings.NewReader("n\n"), &out), &out)
		if _, err := p.Consent(context.Background(), c.c, false); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%+v: screen %q lacks %q", c.c, out.String(), c.want)
		}
		if got := strings.Contains(out.String(), hiddenWarning); got != c.warned {
			t.Errorf("%+v: warned = %v, want %v", c.c, got, c.warned)
		}
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
		if !strings.Contains(out.String(), "Which \\x1b[5mcolour?\n  1. red\n  2. blue\n") {
			t.Errorf("screen %q", out.String())
		}
	}
}

// keys is a KeyReader pressing the given keys in turn.
type keys struct {
	LineReader
	pressed []rune
	offered []string
}

func (k *keys) ReadKey(_ context.Context, prompt, allowed string) (rune, error) {
	k.offered = append(k.offered, allowed)
	r := k.pressed[0]
	k.pressed = k.pressed[1:]
	return r, nil
}

// On a terminal a consent screen takes one key, echoed as the word it
// stands for; Esc and Enter deny, and "always" is only a key where the
// screen offers it.
func TestPerson_OneKeyConsent(t *testing.T) {
	withAlways := tools.Consent{Title: "shell: touch x", Always: []tools.Grant{{Kind: tools.GrantCommand, Subject: "touch"}}}
	cases := []struct {
		key    rune
		c      tools.Consent
		want   agent.Decision
		echo   string
		offers string
	}{
		{'y', withAlways, agent.AllowOnce, "once", "yan"},
		{'a', withAlways, agent.AllowToolAlways, "always", "yan"},
		{0x1b, withAlways, agent.Deny, "deny", "yan"},
		{'\r', withAlways, agent.Deny, "deny", "yan"},
		{'n', tools.Consent{Title: "read ~/.ssh/id_ed25519", Sensitive: true}, agent.Deny, "deny", "yn"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		k := &keys{pressed: []rune{c.key}}
		p := NewPerson(k, &out)
		d, err := p.Consent(context.Background(), c.c, false)
		if err != nil || d != c.want || !strings.HasSuffix(out.String(), c.echo+"\n") || k.offered[0] != c.offers {
			t.Errorf("key %q: %v, %v; screen ends %q; keys offered %q", c.key, d, err, out.String()[max(out.Len()-20, 0):], k.offered)
		}
	}
}
