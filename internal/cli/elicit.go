package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"tai/internal/agent"
	"tai/internal/elicit"
	"tai/internal/lazyre"
	"tai/internal/mcp/oauth"
	"tai/internal/textsafe"
)

// elicitPerson is the person at the terminal as a server's questions reach
// them (repl.Person).
type elicitPerson interface {
	Elicit(ctx context.Context, server string, r *elicit.Request) (elicit.Result, error)
	AwaitBrowser(ctx context.Context, done <-chan struct{}) (bool, error)
}

// elicitor answers the elicitations of one bridge's servers: it asks the
// person of the approver when there is one, and otherwise declines at once
// and says so, except that with --yes a form whose every field has a
// default is accepted with those defaults (nothing in it comes from the
// person). A request tai will not show is refused (-32602) with one line.
type elicitor struct {
	a  *App
	ap *agent.Approver // its Person, read at each question; nil means nobody
}

// answer is the bridge's Elicit.
func (e *elicitor) answer(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, error) {
	r, err := elicit.Parse(params)
	var re *elicit.RefusedError
	if errors.As(err, &re) {
		e.tell(server, "form", "refused", fmt.Sprintf("tai refused a question from MCP server %s: %s", textsafe.VisibleMax(server, 64), textsafe.VisibleLine(re.Why)))
		return nil, re.WireError()
	}
	p := e.person()
	if p == nil {
		return e.unattended(server, r).JSON(), nil
	}
	res, err := p.Elicit(ctx, server, r)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Mode == elicit.ModeURL && res.Action == elicit.Accept:
		res = e.openURL(ctx, p, r)
	case r.Mode == elicit.ModeForm && res.Action == elicit.Accept:
		e.keepSecrets(server, r, res.Content)
	}
	return res.JSON(), nil
}

func (e *elicitor) person() elicitPerson {
	if e.ap == nil {
		return nil
	}
	p, _ := e.ap.Person.(elicitPerson)
	return p
}

// unattended answers for nobody: decline, or with --yes a form's defaults.
func (e *elicitor) unattended(server string, r *elicit.Request) elicit.Result {
	name := textsafe.VisibleMax(server, 64)
	if defaults, all := r.Defaults(); all && r.Mode == elicit.ModeForm && e.a.flags.yes {
		e.tell(server, r.Mode, elicit.Accept, fmt.Sprintf("tai accepted MCP server %s's form with the server's own defaults (--yes; nobody at a terminal to ask)", name))
		return elicit.Result{Action: elicit.Accept, Content: defaults}
	}
	what := map[string]string{elicit.ModeForm: "form", elicit.ModeURL: "request to open a URL"}[r.Mode]
	e.tell(server, r.Mode, elicit.Decline, fmt.Sprintf("tai declined MCP server %s's %s: nobody is at a terminal to answer it", name, what))
	return elicit.Result{Action: elicit.Decline}
}

// openURL opens a URL the person agreed to, and, when a refused call waits
// on it, waits for the server's word or the person's that it is done.
func (e *elicitor) openURL(ctx context.Context, p elicitPerson, r *elicit.Request) elicit.Result {
	fmt.Fprintf(e.a.Stderr, "tai: opening %s in your browser; if it does not open, open it yourself\n", textsafe.VisibleLine(r.URL))
	if err := oauth.OpenBrowser(r.URL, e.a.Getenv); err != nil {
		fmt.Fprintf(e.a.Stderr, "tai: %v\n", err)
	}
	done := elicit.CompletionOf(ctx)
	if done == nil {
		return elicit.Result{Action: elicit.Accept}
	}
	if ok, err := p.AwaitBrowser(ctx, done); err != nil || !ok {
		return elicit.Result{Action: elicit.Cancel}
	}
	return elicit.Result{Action: elicit.Accept}
}

// keepSecrets registers the answers of secret-looking fields with the
// vault's redaction, so the transcript and the audit trail show
// [secret:NAME] wherever a server echoes them.
func (e *elicitor) keepSecrets(server string, r *elicit.Request, content map[string]any) {
	for _, f := range r.Fields {
		if s, ok := content[f.Name].(string); ok && f.Secret {
			e.a.store.AddKnown(secretName(server, f.Name), s)
		}
	}
}

var unnamed = lazyre.New(`[^A-Za-z0-9_.-]+`)

// secretName is how a redacted answer shows: [secret:elicit-SERVER-FIELD].
func secretName(server, field string) string {
	return unnamed.ReplaceAllString("elicit-"+server+"-"+field, "_")
}

// tell says what tai did with a question nobody saw: one line on stderr,
// or with --json an {"type":"elicitation"} event on stdout.
func (e *elicitor) tell(server, mode, action, line string) {
	if e.a.flags.json || (e.a.mcpJSON != nil && *e.a.mcpJSON) {
		b, _ := json.Marshal(map[string]string{"type": "elicitation", "server": server, "mode": mode, "action": action, "message": line})
		e.a.Stdout.Write(append(b, '\n'))
		return
	}
	fmt.Fprintln(e.a.Stderr, line)
}
