package cli

import (
	"tai/internal/agent"
	"tai/internal/repl"
	"tai/internal/tools"
)

// terminalPerson returns the person at this process's terminal: in a
// subcommand run from the REPL, the REPL's own (answering on its line
// editor); else questions on stderr and answers read line by line from
// stdin.
func (a *App) terminalPerson() (agent.Consenter, tools.Prompter) {
	p := a.person
	if p == nil {
		p = repl.NewPerson(repl.NewPlainReader(a.Stdin, a.Stderr), a.Stderr)
	}
	return p, p
}

func agentNotices(a *App) func(string) { return agent.WriterNotices(a.Stderr) }
