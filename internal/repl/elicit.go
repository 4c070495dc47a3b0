package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"tai/internal/elicit"
	"tai/internal/textsafe"
)

// What a server asks the person (MCP elicitation) is drawn as the server's,
// never as tai's: a rule names the server, its words are quoted and
// indented, and every character of them is visible. Ctrl-C or Esc cancels
// the question (the server is told so); it does not end the turn.

// errCancelled ends a form the person dismissed.
var errCancelled = errors.New("cancelled")

// secretWarning follows a field that seems to ask for a credential.
const secretWarning = "warning: this looks like a password, token or key. Servers must not ask for these through a form (MCP says to use a URL in your browser instead); if you answer, tai keeps the answer out of its transcript and audit trail, but the server gets it."

// Elicit shows a server's elicitation and returns the person's answer:
// a form is filled field by field, reviewed, and accepted, declined or
// cancelled; a URL is shown whole with its host, and accepting it means
// the person agreed to open it (the caller opens it).
func (p *Person) Elicit(ctx context.Context, server string, r *elicit.Request) (elicit.Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readyScreen()
	p.header(server, r)
	if r.Mode == elicit.ModeURL {
		return p.askURL(ctx, r)
	}
	return p.askForm(ctx, server, r)
}

// header introduces the question as the server's.
func (p *Person) header(server string, r *elicit.Request) {
	var b strings.Builder
	what := map[string]string{elicit.ModeForm: "asks you to fill in a form", elicit.ModeURL: "asks you to open a web page"}[r.Mode]
	fmt.Fprintf(&b, "\n── MCP server %s %s (this is the server speaking, not tai) ──\n", textsafe.VisibleMax(server, 64), what)
	msg := strings.Trim(r.Message, " \t\n")
	shown := textsafe.Visible(elicit.Shown(msg))
	if shown == "" {
		shown = "(no message)"
	}
	for _, line := range strings.Split(shown, "\n") {
		fmt.Fprintf(&b, "  │ %s\n", line)
	}
	if shown != msg && textsafe.Hidden(msg) {
		b.WriteString("  " + hiddenWarning + "\n")
	}
	io.WriteString(p.out, b.String())
}

// askURL shows the URL and its host and asks whether to open it.
func (p *Person) askURL(ctx context.Context, r *elicit.Request) (elicit.Result, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "  URL:  %s\n", textsafe.VisibleLine(r.URL))
	fmt.Fprintf(&b, "  host: %s   ← the site you would be on; check it is the one you expect\n", strings.ToUpper(textsafe.VisibleLine(r.Host)))
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w)
	}
	b.WriteString("  [o] open it in the browser  [d] decline  [c] cancel\n")
	io.WriteString(p.out, b.String())
	action, err := p.choose(ctx, "open? (o/d/c) ", map[string]string{"o": elicit.Accept, "open": elicit.Accept, "d": elicit.Decline, "decline": elicit.Decline, "c": elicit.Cancel, "cancel": elicit.Cancel})
	return elicit.Result{Action: action}, err
}

// askForm asks each field in turn, then shows the answers for review.
func (p *Person) askForm(ctx context.Context, server string, r *elicit.Request) (elicit.Result, error) {
	content := map[string]any{}
	for _, f := range r.Fields {
		if f.HasDefault {
			content[f.Name] = f.Default
		}
	}
	fmt.Fprintf(p.out, "  %d field(s); Enter keeps the value in [brackets], - leaves an optional field empty, Ctrl-C cancels\n", len(r.Fields))
	for {
		for i, f := range r.Fields {
			err := p.askField(ctx, i+1, len(r.Fields), f, content)
			if errors.Is(err, errCancelled) {
				fmt.Fprintln(p.out, "  cancelled")
				return elicit.Result{Action: elicit.Cancel}, nil
			}
			if err != nil {
				return elicit.Result{Action: elicit.Cancel}, err
			}
		}
		p.review(server, r, content)
		action, err := p.choose(ctx, "send? (a/e/d/c) ", map[string]string{"a": elicit.Accept, "accept": elicit.Accept, "e": "edit", "edit": "edit",
			"d": elicit.Decline, "decline": elicit.Decline, "c": elicit.Cancel, "cancel": elicit.Cancel})
		switch {
		case err != nil:
			return elicit.Result{Action: elicit.Cancel}, err
		case action == "edit":
			continue
		case action == elicit.Accept:
			if err := r.Check(content); err != nil { // every field passed on its own; this is the last word
				fmt.Fprintf(p.out, "  %s\n", textsafe.VisibleLine(err.Error()))
				continue
			}
			return elicit.Result{Action: elicit.Accept, Content: content}, nil
		}
		return elicit.Result{Action: action}, nil
	}
}

// askField asks one field until it gets a valid answer, which it stores in
// content (or removes, for an optional field left empty).
func (p *Person) askField(ctx context.Context, n, of int, f elicit.Field, content map[string]any) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n  %d/%d %s", n, of, textsafe.VisibleLine(elicit.Shown(f.Label())))
	if f.Title != "" && f.Title != f.Name {
		fmt.Fprintf(&b, " (%s)", textsafe.VisibleMax(f.Name, 64))
	}
	fmt.Fprintf(&b, ": %s\n", textsafe.VisibleLine(f.Hint()))
	if d := strings.TrimSpace(f.Description); d != "" {
		fmt.Fprintf(&b, "      %s\n", textsafe.VisibleLine(elicit.Shown(d)))
	}
	for i, o := range f.Options {
		fmt.Fprintf(&b, "      %d. %s\n", i+1, textsafe.VisibleLine(f.Text(o.Value)))
	}
	if f.Secret {
		fmt.Fprintf(&b, "  %s\n", secretWarning)
	}
	io.WriteString(p.out, b.String())
	for {
		prompt := "  > "
		if v, ok := content[f.Name]; ok {
			prompt = "  [" + textsafe.VisibleMax(shownValue(f, v), 80) + "] > "
		}
		ans, err := p.in.ReadLine(ctx, prompt)
		switch {
		case errors.Is(err, ErrInterrupted), errors.Is(err, io.EOF):
			return errCancelled
		case err != nil:
			return err
		}
		ans = strings.TrimSpace(ans)
		_, has := content[f.Name]
		switch {
		case ans == "" && has:
			return nil
		case ans == "" && f.Required:
			fmt.Fprintln(p.out, "  required: type an answer, or Ctrl-C to cancel the form")
			continue
		case ans == "" || (ans == "-" && !f.Required):
			delete(content, f.Name)
			return nil
		}
		v, err := f.Parse(ans)
		if err != nil {
			fmt.Fprintf(p.out, "  %s\n", textsafe.VisibleLine(err.Error()))
			continue
		}
		content[f.Name] = v
		return nil
	}
}

// review shows what would be sent, field by field; a secret-looking answer
// is shown by its length alone.
func (p *Person) review(server string, r *elicit.Request, content map[string]any) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n  MCP server %s would get:\n", textsafe.VisibleMax(server, 64))
	for _, f := range r.Fields {
		v, ok := content[f.Name]
		shown := "(left empty)"
		if ok {
			shown = shownValue(f, v)
		}
		fmt.Fprintf(&b, "    %s: %s\n", textsafe.VisibleMax(f.Label(), 80), textsafe.VisibleLine(shown))
	}
	b.WriteString("  [a] accept and send  [e] edit  [d] decline  [c] cancel\n")
	io.WriteString(p.out, b.String())
}

func shownValue(f elicit.Field, v any) string {
	if s, ok := v.(string); ok && f.Secret && s != "" {
		return fmt.Sprintf("(hidden, %d characters)", len([]rune(s)))
	}
	return f.Text(v)
}

// choose reads one of keys' answers: one key where the terminal gives
// single keys (Esc cancels), else a typed word. Ctrl-C cancels.
func (p *Person) choose(ctx context.Context, prompt string, words map[string]string) (string, error) {
	if kr, ok := p.in.(KeyReader); ok {
		var keys string
		for k := range words {
			if len(k) == 1 {
				keys += k
			}
		}
		for {
			r, err := kr.ReadKey(ctx, prompt+"Esc cancels ", keys)
			switch {
			case errors.Is(err, ErrInterrupted), errors.Is(err, io.EOF):
				fmt.Fprintln(p.out, elicit.Cancel)
				return elicit.Cancel, nil
			case err != nil:
				return elicit.Cancel, err
			case r == 0x1b:
				fmt.Fprintln(p.out, elicit.Cancel)
				return elicit.Cancel, nil
			}
			if a, ok := words[string(r)]; ok {
				fmt.Fprintln(p.out, a)
				return a, nil
			}
		}
	}
	for {
		ans, err := p.in.ReadLine(ctx, prompt)
		switch {
		case errors.Is(err, ErrInterrupted), errors.Is(err, io.EOF):
			return elicit.Cancel, nil
		case err != nil:
			return elicit.Cancel, err
		}
		if a, ok := words[strings.ToLower(strings.TrimSpace(ans))]; ok {
			return a, nil
		}
		fmt.Fprintln(p.out, "  answer one of the letters in brackets")
	}
}

// AwaitBrowser waits, after a URL was opened for a request tai will send
// again, for done (the server said the step is finished) or for the person
// to press Enter; Esc or Ctrl-C gives up. It reports whether to go on.
func (p *Person) AwaitBrowser(ctx context.Context, done <-chan struct{}) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-done:
			stop()
		case <-wctx.Done():
		}
	}()
	prompt := "  finish in the browser; tai goes on when the server says it is done, or press Enter when you are (Esc gives up) "
	var err error
	if kr, ok := p.in.(KeyReader); ok {
		var r rune
		r, err = kr.ReadKey(wctx, prompt, "")
		if err == nil && r == 0x1b {
			fmt.Fprintln(p.out, "gave up")
			return false, nil
		}
	} else {
		_, err = p.in.ReadLine(wctx, prompt)
	}
	select {
	case <-done:
		fmt.Fprintln(p.out, "\n  the server says the browser step is done")
		return true, nil
	default:
	}
	switch {
	case errors.Is(err, ErrInterrupted), errors.Is(err, io.EOF):
		return false, nil
	case err != nil:
		return false, err
	}
	fmt.Fprintln(p.out)
	return true, nil
}
