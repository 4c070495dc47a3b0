package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"tai/internal/agent"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

// Person is the person at the terminal as the agent sees them: consent
// screens and ask_user questions are shown on Out and answered through
// the LineReader. Everything shown that came from a tool or the model is
// rendered visibly ([textsafe.Visible]): a person decides on what runs,
// so no character of it is hidden or allowed to act on the terminal.
type Person struct {
	in  LineReader
	out io.Writer
	// interrupt, when set, is called on Ctrl-C at a question: the REPL
	// cancels the running turn.
	interrupt func()
	// prepare, when set, readies the screen for a question (stops the
	// spinner).
	prepare func()
	mu      sync.Mutex // one question at a time
}

var (
	_ agent.Consenter = (*Person)(nil)
	_ tools.Prompter  = (*Person)(nil)
)

// NewPerson returns a person answering through in, with questions on out.
func NewPerson(in LineReader, out io.Writer) *Person {
	return &Person{in: in, out: out}
}

// readyScreen readies the screen for a question, where the REPL asks for
// that (it stops the spinner).
func (p *Person) readyScreen() {
	if p.prepare != nil {
		p.prepare()
	}
}

// read reads one answer, turning Ctrl-C into the end of the turn.
func (p *Person) read(ctx context.Context, prompt string) (string, error) {
	s, err := p.in.ReadLine(ctx, prompt)
	switch {
	case errors.Is(err, ErrInterrupted):
		if p.interrupt != nil {
			p.interrupt()
		}
		return "", context.Canceled
	case errors.Is(err, io.EOF):
		return "", errors.New("no answer: input closed")
	}
	return strings.TrimSpace(s), err
}

// hiddenWarning follows a consent screen on which something was escaped.
const hiddenWarning = `warning: this contains control or invisible characters, shown as escapes (\x1b, <U+200B>)`

// Consent implements agent.Consenter.
func (p *Person) Consent(ctx context.Context, c tools.Consent, allowServer bool) (agent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readyScreen()
	var b strings.Builder
	// Only blanks are trimmed: a trailing \r or U+00A0 is part of what runs.
	raw := strings.Trim(c.Detail, " \t\n")
	title, detail := textsafe.VisibleLine(c.Title), textsafe.Visible(raw)
	fmt.Fprintf(&b, "\ntai wants to run: %s\n", title)
	if detail != "" {
		for _, line := range strings.Split(detail, "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	// A backslash is shown as itself, so say when one is an escape.
	if title != c.Title || detail != raw {
		b.WriteString("  " + hiddenWarning + "\n")
	}
	// "Always" is offered only where the policy named narrow grants to
	// store (Consent.Always); a sensitive call offers neither.
	always := len(c.Always) > 0
	allowServer = allowServer && always
	if always {
		b.WriteString("  always would allow:\n")
		for _, g := range c.Always {
			fmt.Fprintf(&b, "    %s\n", textsafe.VisibleLine(g.String()))
		}
	}
	if c.Sensitive {
		b.WriteString("  this asks every time: no standing grant covers it\n")
	}
	b.WriteString("  [y] once")
	keys := "y"
	if always {
		b.WriteString("  [a] always (as listed)")
		keys += "/a"
	}
	if allowServer {
		fmt.Fprintf(&b, "  [s] always for server %s", textsafe.VisibleLine(c.Server))
		keys += "/s"
	}
	b.WriteString("  [n] deny\n")
	keys += "/n"
	io.WriteString(p.out, b.String())
	return p.decide(ctx, keys, always, allowServer)
}

// decide reads the answer to a consent screen: one key where the terminal
// gives single keys (echoed as the word it stands for; Esc and Enter
// deny), else a typed word.
func (p *Person) decide(ctx context.Context, keys string, always, allowServer bool) (agent.Decision, error) {
	choices := map[string]agent.Decision{"y": agent.AllowOnce, "yes": agent.AllowOnce, "once": agent.AllowOnce,
		"n": agent.Deny, "no": agent.Deny, "deny": agent.Deny, "": agent.Deny}
	if always {
		choices["a"], choices["always"] = agent.AllowToolAlways, agent.AllowToolAlways
	}
	if allowServer {
		choices["s"], choices["server"] = agent.AllowServerAlways, agent.AllowServerAlways
	}
	prompt := "allow? (" + keys + ") "
	if kr, ok := p.in.(KeyReader); ok {
		r, err := kr.ReadKey(ctx, prompt+"Esc denies ", strings.ReplaceAll(keys, "/", ""))
		switch {
		case errors.Is(err, ErrInterrupted):
			if p.interrupt != nil {
				p.interrupt()
			}
			return agent.Deny, context.Canceled
		case errors.Is(err, io.EOF):
			return agent.Deny, errors.New("no answer: input closed")
		case err != nil:
			return agent.Deny, err
		}
		d := choices[string(r)]
		if r == 0x1b || r == '\r' {
			d = agent.Deny
		}
		fmt.Fprintln(p.out, decisionWords[d])
		return d, nil
	}
	for {
		ans, err := p.read(ctx, prompt)
		if err != nil {
			return agent.Deny, err
		}
		if d, ok := choices[strings.ToLower(ans)]; ok {
			return d, nil
		}
		fmt.Fprintf(p.out, "answer %s\n", strings.ReplaceAll(keys, "/", ", "))
	}
}

// decisionWords echo a one-key answer.
var decisionWords = map[agent.Decision]string{agent.AllowOnce: "once", agent.AllowToolAlways: "always",
	agent.AllowServerAlways: "always for this server", agent.Deny: "deny"}

// Ask implements tools.Prompter: choices are numbered, and a number picks
// one; any other answer is returned as typed.
func (p *Person) Ask(ctx context.Context, question string, choices []string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readyScreen()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(textsafe.Visible(question), "\n"))
	for i, c := range choices {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, textsafe.VisibleLine(c))
	}
	io.WriteString(p.out, b.String())
	ans, err := p.read(ctx, "answer> ")
	if err != nil {
		return "", err
	}
	if n, err := strconv.Atoi(ans); err == nil && n >= 1 && n <= len(choices) {
		return choices[n-1], nil
	}
	return ans, nil
}

// YesNo asks a yes/no question; an empty answer takes def.
func (p *Person) YesNo(ctx context.Context, question string, def bool) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readyScreen()
	hint := map[bool]string{true: "[Y/n]", false: "[y/N]"}[def]
	io.WriteString(p.out, textsafe.VisibleLine(question)+"\n")
	for {
		ans, err := p.read(ctx, hint+" ")
		if err != nil {
			return false, err
		}
		switch strings.ToLower(ans) {
		case "":
			return def, nil
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
	}
}
