package cli

import (
	"bufio"
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

// linePerson is a person answering at a terminal, one line per answer. It
// shows consent screens and ask_user questions on out and reads answers
// from in.
type linePerson struct {
	mu  sync.Mutex
	in  *bufio.Reader
	out io.Writer
}

var (
	_ agent.Consenter = (*linePerson)(nil)
	_ tools.Prompter  = (*linePerson)(nil)
)

// terminalPerson returns the person at this process's terminal.
func (a *App) terminalPerson() (agent.Consenter, tools.Prompter) {
	p := &linePerson{in: bufio.NewReader(a.Stdin), out: a.Stderr}
	return p, p
}

func agentNotices(a *App) func(string) { return agent.WriterNotices(a.Stderr) }

// readLine reads one answer; ctx cancellation abandons the wait.
func (p *linePerson) readLine(ctx context.Context) (string, error) {
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		s, err := p.in.ReadString('\n')
		ch <- result{strings.TrimSpace(s), err}
	}()
	select {
	case r := <-ch:
		if r.err != nil && r.s == "" {
			return "", errors.New("no answer: input closed")
		}
		return r.s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Consent implements agent.Consenter.
func (p *linePerson) Consent(ctx context.Context, c tools.Consent, allowServer bool) (agent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\ntai wants to run: %s\n", textsafe.Line(c.Title))
	if d := strings.TrimSpace(c.Detail); d != "" {
		for _, line := range strings.Split(textsafe.Clean(d), "\n") {
			fmt.Fprintf(p.out, "  %s\n", line)
		}
	}
	choices := "[y] once  [a] always for this tool"
	if allowServer {
		choices += "  [s] always for server " + textsafe.Line(c.Server)
	}
	choices += "  [n] deny"
	for {
		fmt.Fprintf(p.out, "%s: ", choices)
		ans, err := p.readLine(ctx)
		if err != nil {
			return agent.Deny, err
		}
		switch strings.ToLower(ans) {
		case "y", "yes", "once":
			return agent.AllowOnce, nil
		case "a", "always":
			return agent.AllowToolAlways, nil
		case "s", "server":
			if allowServer {
				return agent.AllowServerAlways, nil
			}
		case "n", "no", "deny", "":
			return agent.Deny, nil
		}
		fmt.Fprintf(p.out, "answer y, a%s or n\n", map[bool]string{true: ", s", false: ""}[allowServer])
	}
}

// Ask implements tools.Prompter.
func (p *linePerson) Ask(ctx context.Context, question string, choices []string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n%s\n", textsafe.Clean(question))
	for i, c := range choices {
		fmt.Fprintf(p.out, "  %d. %s\n", i+1, textsafe.Line(c))
	}
	fmt.Fprint(p.out, "> ")
	ans, err := p.readLine(ctx)
	if err != nil {
		return "", err
	}
	if n, err := strconv.Atoi(ans); err == nil && n >= 1 && n <= len(choices) {
		return choices[n-1], nil
	}
	return ans, nil
}

// YesNo asks a yes/no question; an empty answer takes def.
func (p *linePerson) YesNo(ctx context.Context, question string, def bool) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	hint := map[bool]string{true: "[Y/n]", false: "[y/N]"}[def]
	for {
		fmt.Fprintf(p.out, "%s %s ", textsafe.Line(question), hint)
		ans, err := p.readLine(ctx)
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
