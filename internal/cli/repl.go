package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"tai/internal/agent"
)

// runREPL is the interactive session: one turn per line until /exit or
// end of input.
func (a *App) runREPL(ctx context.Context, o chatOptions) error {
	c, err := a.newChat(ctx, o)
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(a.Stderr, "tai %s on %s (profile %s). /exit to leave.\n", c.cfg.Model(), c.session, c.cfg.Profile)
	in := bufio.NewReader(a.Stdin)
	render := a.plainRenderer()
	for {
		fmt.Fprint(a.Stderr, "> ")
		line, err := in.ReadString('\n')
		line = strings.TrimSpace(line)
		if line == "/exit" || (err != nil && line == "") {
			fmt.Fprintln(a.Stderr)
			return nil
		}
		if line == "" {
			continue
		}
		if _, err := c.agent.RunTurn(ctx, line, agent.TurnOptions{OnEvent: render}); err != nil {
			fmt.Fprintf(a.Stderr, "tai: %v\n", err)
		}
	}
}
