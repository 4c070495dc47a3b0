package cli

import (
	"os"

	"tai/internal/agent"
	"tai/internal/repl"
	"tai/internal/tools"
)

// terminalPerson returns the person at this process's terminal: in a
// subcommand run from the REPL, the REPL's own (answering on its line
// editor); else questions on stderr, answered on the line editor (one key
// for an approval) when stdin is a terminal, else line by line.
func (a *App) terminalPerson() (agent.Consenter, tools.Prompter) {
	p := a.person
	if p == nil {
		var in repl.LineReader = repl.NewPlainReader(a.Stdin, a.Stderr)
		if f, ok := a.Stdin.(*os.File); ok && a.IsTerminal(f) {
			in = repl.NewEditor(f, a.Stderr)
		}
		p = repl.NewPerson(in, a.Stderr)
	}
	return p, p
}

func agentNotices(a *App) func(string) { return agent.WriterNotices(a.Stderr) }
