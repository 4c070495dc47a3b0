package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/elicit"
)

const testForm = `{"message":"Tell us \u001b[31mabout you\u001b[0m","requestedSchema":{"type":"object","properties":{
 "name":{"type":"string","title":"Your name","minLength":2},
 "age":{"type":"integer","minimum":0,"default":30},
 "color":{"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]},
 "token":{"type":"string","description":"your GitHub token"}},"required":["name"]}}`

func parsed(t *testing.T, params string) *elicit.Request {
	t.Helper()
	r, err := elicit.Parse(json.RawMessage(params))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPerson_ElicitForm(t *testing.T) {
	cases := []struct {
		name, typed string
		want        elicit.Result
	}{
		// A too-short name and a bad number are asked again; Enter keeps
		// the age's default; the color is picked by number.
		{"filled", "x\nAda\nold\n\n2\nghp_secret_value\na\n",
			elicit.Result{Action: elicit.Accept, Content: map[string]any{"name": "Ada", "age": 30.0, "color": "g", "token": "ghp_secret_value"}}},
		// An optional field left empty with -; edit goes round again.
		{"edited", "Ada\n-\n\n\ne\nBob\n5\n1\n\na\n",
			elicit.Result{Action: elicit.Accept, Content: map[string]any{"name": "Bob", "age": 5.0, "color": "r"}}},
		{"declined", "Ada\n\n\n\nd\n", elicit.Result{Action: elicit.Decline}},
		{"cancelled at review", "Ada\n\n\n\nc\n", elicit.Result{Action: elicit.Cancel}},
		// Input ending mid-form (Ctrl-D) cancels, never sends half a form.
		{"input closed", "Ada\n", elicit.Result{Action: elicit.Cancel}},
		{"required asked again", "\nAda\n\n\n\na\n", elicit.Result{Action: elicit.Accept, Content: map[string]any{"name": "Ada", "age": 30.0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPerson(NewPlainReader(strings.NewReader(c.typed), &out), &out)
			got, err := p.Elicit(context.Background(), "every\x1bthing", parsed(t, testForm))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Fatalf("result (-want +got):\n%s\nscreen:\n%s", diff, out.String())
			}
			shown := out.String()
			wants := []string{
				`── MCP server every\x1bthing asks you to fill in a form (this is the server speaking, not tai) ──`,
				`  │ Tell us \x1b[31mabout you\x1b[0m`, hiddenWarning, "1/4 Your name (name): text, at least 2 characters, required", "[30] > ",
			}
			if c.name != "input closed" {
				wants = append(wants, "      2. Green (g)", secretWarning, "MCP server every\\x1bthing would get:")
			}
			for _, want := range wants {
				if !strings.Contains(shown, want) {
					t.Errorf("screen lacks %q:\n%s", want, shown)
				}
			}
			if strings.Contains(shown, "\x1b") {
				t.Errorf("an escape reached the screen: %q", shown)
			}
			if strings.Contains(shown, "would get") && strings.Contains(shown, "token: ghp_secret_value") {
				t.Errorf("the review shows a secret-looking answer: %s", shown)
			}
		})
	}
}

func TestPerson_ElicitURL(t *testing.T) {
	r := parsed(t, `{"mode":"url","elicitationId":"e1","url":"https://xn--pple-43d.com/connect?id=1","message":"Connect your account"}`)
	for typed, want := range map[string]string{"o\n": elicit.Accept, "d\n": elicit.Decline, "c\n": elicit.Cancel, "": elicit.Cancel, "what\nopen\n": elicit.Accept} {
		var out bytes.Buffer
		p := NewPerson(NewPlainReader(strings.NewReader(typed), &out), &out)
		got, err := p.Elicit(context.Background(), "acme", r)
		if err != nil || got.Action != want || got.Content != nil {
			t.Errorf("typed %q: %+v, %v; want %s", typed, got, err, want)
		}
		shown := out.String()
		for _, s := range []string{"MCP server acme asks you to open a web page", "  URL:  https://xn--pple-43d.com/connect?id=1\n", "  host: XN--PPLE-43D.COM", "punycode"} {
			if !strings.Contains(shown, s) {
				t.Errorf("typed %q: screen lacks %q:\n%s", typed, s, shown)
			}
		}
	}
}

func TestPerson_AwaitBrowser(t *testing.T) {
	done := make(chan struct{})
	close(done)
	var out bytes.Buffer
	// Nothing typed: the server's word alone lets it go on.
	silent, w := io.Pipe()
	defer w.Close()
	p := NewPerson(NewPlainReader(silent, &out), &out)
	ok, err := p.AwaitBrowser(context.Background(), done)
	if err != nil || !ok || !strings.Contains(out.String(), "the server says the browser step is done") {
		t.Fatalf("completed: %v, %v, screen %q", ok, err, out.String())
	}
	out.Reset()
	p = NewPerson(NewPlainReader(strings.NewReader("\n"), &out), &out)
	if ok, err := p.AwaitBrowser(context.Background(), make(chan struct{})); err != nil || !ok {
		t.Fatalf("Enter: %v, %v", ok, err)
	}
	p = NewPerson(NewPlainReader(strings.NewReader(""), &out), &out)
	if ok, err := p.AwaitBrowser(context.Background(), make(chan struct{})); err != nil || ok {
		t.Fatalf("input closed: %v, %v; want to give up", ok, err)
	}
}
