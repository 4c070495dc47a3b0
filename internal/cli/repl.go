package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	tai "tai"
	"tai/internal/repl"
)

// historyFile is the REPL's line history, in tai's home.
const historyFile = "repl_history"

// runREPL is the interactive session (package repl) on this process's
// terminal.
func (a *App) runREPL(ctx context.Context, o chatOptions) error {
	home, err := a.Home()
	if err != nil {
		return err
	}
	if _, err := a.Store(ctx); err != nil {
		return err
	}
	out, tty := a.Stdout.(*os.File)
	tty = tty && a.IsTerminal(out) && a.Stdin == os.Stdin && out == os.Stdout
	opts := repl.Options{
		Host:     &replHost{a: a},
		Out:      a.Stdout,
		Terminal: tty,
		Color:    tty && a.Getenv("NO_COLOR") == "" && a.Getenv("TERM") != "dumb",
		First:    repl.OpenRequest{Continue: o.Continue, Resume: o.Resume},
		Version:  tai.Version,
	}
	if tty {
		// The editor drives stdin and stdout, a terminal, itself.
		ed := repl.OpenEditor(filepath.Join(home, historyFile))
		defer ed.Close()
		opts.In, opts.Remember = ed, ed.Remember
		opts.Width = func() int {
			w, _, err := term.GetSize(int(out.Fd()))
			if err != nil {
				return 0
			}
			return w
		}
	} else {
		opts.In = repl.NewPlainReader(a.Stdin, a.Stderr)
	}
	interrupts, release := a.takeInterrupts()
	defer release()
	opts.Interrupts = interrupts
	return repl.Run(ctx, opts)
}

// replHost is the REPL's view of tai: conversations built as one-shot
// builds them, and the same command tree as the shell's.
type replHost struct{ a *App }

var _ repl.Host = (*replHost)(nil)

// Open implements repl.Host.
func (h *replHost) Open(ctx context.Context, r repl.OpenRequest) (repl.Conversation, error) {
	o := chatOptions{Profile: r.Profile, Model: r.Model, Notices: r.Notices, ServerLogs: r.Notices, Arrived: r.Arrived,
		Continue: r.Continue, Resume: r.Resume}
	if r.Person != nil {
		o.Person, o.Prompter = r.Person, r.Person
	}
	return h.a.newChat(ctx, o)
}

// notSlashCommands are subcommands a slash command does not reach.
var notSlashCommands = map[string]bool{"help": true, "completion": true}

// Commands implements repl.Host.
func (h *replHost) Commands() []repl.Command {
	var out []repl.Command
	for _, c := range newRoot(&App{}).Commands() {
		if !c.Hidden && !notSlashCommands[c.Name()] {
			out = append(out, repl.Command{Name: c.Name(), Short: c.Short})
		}
	}
	return out
}

// RunCommand implements repl.Host: args run through a fresh command tree,
// as `tai --profile PROFILE ARGS…` with this session's other global flags.
func (h *replHost) RunCommand(ctx context.Context, profile string, args []string, person *repl.Person) {
	a := h.a
	sub := &App{Stdin: a.Stdin, Stdout: a.Stdout, Stderr: a.Stderr, Getenv: a.Getenv,
		IsTerminal: a.IsTerminal, ReadPassword: a.ReadPassword, store: a.store, person: person}
	root := newRootFor(sub, args)
	if c, _, err := root.Find(args); err != nil || c == root {
		fmt.Fprintf(a.Stderr, "tai: no subcommand in %q\n", strings.Join(args, " "))
		return
	}
	// Defining the flags reset them to their defaults; parsing args sets
	// only those given.
	sub.flags = globalFlags{home: a.flags.home, profile: profile, model: a.flags.model,
		auto: a.flags.auto, yolo: a.flags.yolo, maxSteps: a.flags.maxSteps}
	root.SetArgs(args)
	root.SetIn(a.Stdin)
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	report(a.Stderr, root.ExecuteContext(ctx))
}
