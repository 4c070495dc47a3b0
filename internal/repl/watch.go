package repl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"tai/internal/textsafe"
)

// ResourceWatcher is a conversation that can follow its MCP servers'
// resources for /watch; the command line's conversations are.
type ResourceWatcher interface {
	// WatchResource follows uri of server: changed receives each change
	// the server tells of, lost closes when the server goes away; stop
	// ends it.
	WatchResource(ctx context.Context, server, uri string) (changed, lost <-chan struct{}, stop func(), err error)
}

// watching is one resource followed with /watch.
type watching struct {
	stop func() // ends the watch and its goroutine
}

// watch answers /watch: with no argument it lists what is followed; with
// @SERVER:URI (the @ may be left out) it follows that resource, and the
// person is told, above what they are typing, each time it changes.
func (s *session) watch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		names := s.watchedNames()
		if len(names) == 0 {
			fmt.Fprintln(s.scr, "no resource is followed; /watch @SERVER:URI follows one")
			return nil
		}
		for _, n := range names {
			fmt.Fprintf(s.scr, "  @%s\n", textsafe.VisibleLine(n))
		}
		return nil
	}
	if len(args) > 1 {
		return errors.New("usage: /watch @SERVER:URI (one resource; /watch alone lists them)")
	}
	ref := strings.TrimPrefix(args[0], "@")
	server, uri, ok := s.resourceRef(ref)
	w, can := s.conv.(ResourceWatcher)
	if !ok || !can {
		return fmt.Errorf("%s is not a resource of an MCP server enabled for this profile; /watch @SERVER:URI (Tab completes it)", textsafe.VisibleLine(args[0]))
	}
	if s.watched(ref) {
		return fmt.Errorf("@%s is already followed; /unwatch @%s stops it", textsafe.VisibleLine(ref), textsafe.VisibleLine(ref))
	}
	cctx := s.begin(ctx)
	changed, lost, stop, err := w.WatchResource(cctx, server, uri)
	s.end()
	if err != nil {
		return err
	}
	done := make(chan struct{})
	s.mu.Lock()
	if s.watches == nil {
		s.watches = map[string]*watching{}
	}
	s.watches[ref] = &watching{stop: func() { close(done); stop() }}
	s.mu.Unlock()
	name := textsafe.VisibleLine(ref)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-changed:
				s.interject(fmt.Sprintf("tai: @%s changed; @%s in a message attaches it as it is now", name, name))
			case <-lost:
				s.mu.Lock()
				delete(s.watches, ref)
				s.mu.Unlock()
				stop()
				s.interject(fmt.Sprintf("tai: MCP server %s went away; @%s is no longer followed", textsafe.VisibleLine(server), name))
				return
			}
		}
	}()
	fmt.Fprintf(s.scr, "following @%s: you are told when it changes (/unwatch @%s stops)\n", name, name)
	return nil
}

// unwatch answers /unwatch @SERVER:URI.
func (s *session) unwatch(_ context.Context, args []string) error {
	if len(args) != 1 {
		return errors.New("usage: /unwatch @SERVER:URI (/watch lists what is followed)")
	}
	ref := strings.TrimPrefix(args[0], "@")
	s.mu.Lock()
	w := s.watches[ref]
	delete(s.watches, ref)
	s.mu.Unlock()
	if w == nil {
		return fmt.Errorf("@%s is not followed; /watch lists what is", textsafe.VisibleLine(ref))
	}
	w.stop()
	fmt.Fprintf(s.scr, "no longer following @%s\n", textsafe.VisibleLine(ref))
	return nil
}

// watched reports whether ref (SERVER:URI) is followed.
func (s *session) watched(ref string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watches[ref] != nil
}

// watchedNames are the followed resources, as SERVER:URI, sorted.
func (s *session) watchedNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for ref := range s.watches {
		out = append(out, ref)
	}
	slices.Sort(out)
	return out
}

// stopWatches ends every watch, as its conversation closes, and reports
// how many there were.
func (s *session) stopWatches() int {
	s.mu.Lock()
	ws := s.watches
	s.watches = nil
	s.mu.Unlock()
	for _, w := range ws {
		w.stop()
	}
	return len(ws)
}

// interject tells the person something that happened on its own (a
// followed resource changed): above the message being typed when the
// REPL waits at its prompt, else as a line of its own.
func (s *session) interject(line string) {
	s.mu.Lock()
	idle := s.cancel == nil
	s.mu.Unlock()
	if e, ok := s.o.In.(interface{ Interject(string) }); ok && idle {
		e.Interject(s.scr.styled(warn, line))
		return
	}
	s.scr.line(warn, line)
}
