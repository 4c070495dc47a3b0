package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"tai/internal/textsafe"
)

// Send shows what tai would send (a model's reply an MCP server asked
// for) in full, every character visible, and asks whether to send it:
// one key where the terminal gives single keys (Esc and Enter keep it),
// else a typed word.
func (p *Person) Send(ctx context.Context, title, detail string) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readyScreen()
	var b strings.Builder
	raw := strings.Trim(detail, " \t\n")
	shownTitle, shown := textsafe.VisibleLine(title), textsafe.Visible(raw)
	fmt.Fprintf(&b, "\ntai would %s\n", shownTitle)
	for _, line := range strings.Split(shown, "\n") {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	if shownTitle != title || shown != raw {
		b.WriteString("  " + hiddenWarning + "\n")
	}
	b.WriteString("  [s] send  [n] don't send\n")
	io.WriteString(p.out, b.String())
	if kr, ok := p.in.(KeyReader); ok {
		r, err := kr.ReadKey(ctx, "send? (s/n) Esc keeps it ", "sn")
		switch {
		case errors.Is(err, ErrInterrupted):
			if p.interrupt != nil {
				p.interrupt()
			}
			return false, context.Canceled
		case errors.Is(err, io.EOF):
			return false, errors.New("no answer: input closed")
		case err != nil:
			return false, err
		}
		send := r == 's'
		fmt.Fprintln(p.out, map[bool]string{true: "send", false: "don't send"}[send])
		return send, nil
	}
	for {
		ans, err := p.read(ctx, "send? (s/n) ")
		if err != nil {
			return false, err
		}
		switch strings.ToLower(ans) {
		case "s", "send", "y", "yes":
			return true, nil
		case "n", "no", "":
			return false, nil
		}
		fmt.Fprintln(p.out, "answer s or n")
	}
}
