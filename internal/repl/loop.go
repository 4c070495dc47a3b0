package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"tai/internal/llm"
	"tai/internal/textsafe"
)

// session is one run of the REPL.
type session struct {
	o      Options
	scr    *screen
	person *Person
	conv   Conversation
	model  string // the /model override, "" for the profile's

	mu     sync.Mutex
	cancel context.CancelFunc // of the running turn or command, nil at the prompt

	spent spend // for /cost
	// carry is what goes to the model ahead of the next message: the
	// output of the person's !commands, the results of tasks that ended
	// in the background; guarded by mu.
	carry string
	// watches are the resources followed with /watch, by SERVER:URI;
	// guarded by mu.
	watches map[string]*watching
}

// Run runs the REPL until /exit, Ctrl-D or ctx's end. It returns an error
// only when the first conversation cannot be opened.
func Run(ctx context.Context, o Options) error {
	s := &session{o: o, scr: newScreen(o.Out, o.Terminal, o.Color, o.Width)}
	s.person = &Person{in: o.In, out: s.scr, interrupt: s.interrupt, prepare: s.scr.endLine}
	first := o.First
	first.Person, first.Notices, first.Arrived = s.person, s.notice, s.arrived
	conv, err := o.Host.Open(ctx, first)
	if err != nil {
		return err
	}
	s.conv, s.model = conv, first.Model
	defer func() {
		s.stopWatches()
		s.conv.Close()
	}()
	if c, ok := o.In.(interface{ SetCompleter(func(string) []string) }); ok {
		c.SetCompleter(s.Complete)
	}
	s.banner(first.Resume != "" || first.Continue)
	go s.watchInterrupts(ctx)
	for {
		input, err := s.readInput(ctx)
		switch {
		case errors.Is(err, ErrInterrupted):
			continue
		case errors.Is(err, io.EOF), ctx.Err() != nil:
			return nil
		case err != nil:
			return err
		}
		if strings.TrimSpace(input) == "" {
			continue
		}
		if s.o.Remember != nil {
			if err := s.o.Remember(input); err != nil {
				s.scr.line(warn, "tai: "+err.Error())
			}
		}
		switch {
		case strings.HasPrefix(input, "/"):
			if s.command(ctx, input) == errExit {
				return nil
			}
		case strings.HasPrefix(input, "!"):
			s.shell(ctx, strings.TrimPrefix(input, "!"))
		default:
			s.turn(ctx, input)
		}
	}
}

// readInput reads one message; a line ending in a backslash continues on
// the next.
func (s *session) readInput(ctx context.Context) (string, error) {
	s.scr.endLine()
	var lines []string
	prompt := s.prompt()
	for {
		line, err := s.o.In.ReadLine(ctx, prompt)
		if err != nil {
			return "", err
		}
		if !strings.HasSuffix(line, `\`) {
			return strings.Join(append(lines, line), "\n"), nil
		}
		lines = append(lines, strings.TrimSuffix(line, `\`))
		prompt = strings.Repeat(" ", max(len(prompt)-4, 0)) + "... "
	}
}

// prompt shows the profile the session runs on.
func (s *session) prompt() string { return textsafe.Line(s.conv.Info().Profile) + "> " }

func (s *session) banner(resumed bool) {
	in := s.conv.Info()
	fmt.Fprintf(s.scr, "tai %s · %s · profile %s · approval %s\n", s.o.Version,
		textsafe.Line(in.Model), textsafe.Line(in.Profile), in.Approval)
	if resumed && in.Session != "" {
		fmt.Fprintf(s.scr, "resumed conversation %s (%d messages)\n", in.Session, in.Messages)
	}
	if in.Problem != "" {
		s.problem(in.Problem)
	}
	s.scr.line(dim, "/help for commands · Ctrl-C cancels · Ctrl-D exits")
}

// problem says why the model cannot be reached and how to fix it here.
func (s *session) problem(p string) {
	s.scr.line(bad, "tai: "+p)
	s.scr.line(dim, "fix it and send your message again, or switch with /model provider:model or /profile NAME")
}

func (s *session) notice(text string) { s.interject("tai: " + text) }

// arrived takes what ended on its own: the person is told now, and the
// model with the next message.
func (s *session) arrived(notice, forModel string) {
	s.mu.Lock()
	s.carry += forModel
	s.mu.Unlock()
	s.interject("tai: " + notice)
}

// turn runs one message of the person's through the agent, with the
// files its @paths name; Ctrl-C cancels it.
func (s *session) turn(ctx context.Context, input string) { s.send(ctx, input, true) }

// send runs one message through the agent; Ctrl-C cancels it. Only the
// person's own text has its @paths attached (attach), never a server's.
func (s *session) send(ctx context.Context, input string, attach bool) {
	if s.conv.Info().Problem != "" && !s.reopen(ctx, false) {
		return
	}
	tctx := s.begin(ctx)
	defer s.end()
	if attach {
		var ok bool
		if input, ok = s.attachFiles(tctx, input); !ok {
			return
		}
	}
	s.mu.Lock()
	input, s.carry = s.carry+input, ""
	s.mu.Unlock()
	res, err := s.conv.Turn(tctx, input, s.scr.event)
	s.scr.endLine()
	if res.Usage != (llm.Usage{}) {
		in := s.conv.Info()
		s.spent.add(res.Usage, in.Price)
		s.scr.line(dim, statusLine(res.Usage, res.Context, in))
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled) && ctx.Err() == nil:
		s.scr.line(dim, "cancelled")
	default:
		s.scr.line(bad, "tai: "+err.Error())
	}
}

// begin makes the running turn's context, which Ctrl-C cancels.
func (s *session) begin(ctx context.Context) context.Context {
	tctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return tctx
}

func (s *session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
}

// interrupt cancels what is running; at the prompt it does nothing.
func (s *session) interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *session) watchInterrupts(ctx context.Context) {
	for {
		select {
		case <-s.o.Interrupts:
			s.interrupt()
		case <-ctx.Done():
			return
		}
	}
}
