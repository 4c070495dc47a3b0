package repl

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"tai/internal/textsafe"
)

// open opens a conversation with the session's person and notices.
func (s *session) open(ctx context.Context, r OpenRequest) (Conversation, error) {
	r.Person, r.Notices, r.Arrived = s.person, s.notice, s.arrived
	return s.o.Host.Open(ctx, r)
}

// switchModel is /model [provider:model]: the conversation goes on with
// another model.
func (s *session) switchModel(ctx context.Context, args []string) error {
	in := s.conv.Info()
	switch len(args) {
	case 0:
		fmt.Fprintf(s.scr, "model %s on profile %s\n", textsafe.Line(in.Model), textsafe.Line(in.Profile))
		return nil
	case 1:
	default:
		return errors.New("usage: /model [provider:model]")
	}
	conv, err := s.open(ctx, OpenRequest{Profile: in.Profile, Model: args[0], Resume: in.Session})
	if err != nil {
		return err
	}
	if p := conv.Info().Problem; p != "" && in.Problem == "" {
		conv.Close()
		return fmt.Errorf("staying on %s: %s", in.Model, p)
	}
	s.adopt(conv)
	s.model = args[0]
	s.switched("model " + textsafe.Line(conv.Info().Model) + " for this conversation")
	return nil
}

// switchProfile is /profile [NAME], or `tai profile …` for its own
// subcommands.
func (s *session) switchProfile(ctx context.Context, args []string) error {
	in := s.conv.Info()
	switch {
	case len(args) == 0:
		fmt.Fprintf(s.scr, "profile %s · model %s · approval %s\n", textsafe.Line(in.Profile), textsafe.Line(in.Model), in.Approval)
		return nil
	case slices.Contains(profileSubcommands, args[0]):
		s.runHost(ctx, append([]string{"profile"}, args...))
		return nil
	case len(args) > 1:
		return errors.New("usage: /profile [NAME], or /profile list|use|create|show …")
	}
	conv, err := s.open(ctx, OpenRequest{Profile: args[0]})
	if err != nil {
		return err
	}
	s.adopt(conv)
	s.model = ""
	s.switched("profile " + textsafe.Line(args[0]) + ", a new conversation (`/profile use " + textsafe.Line(args[0]) + "` makes it the default)")
	return nil
}

// clear is /clear: a new conversation on the same profile and model.
func (s *session) clear(ctx context.Context, args []string) error {
	if len(args) != 0 {
		return errors.New("usage: /clear")
	}
	conv, err := s.open(ctx, OpenRequest{Profile: s.conv.Info().Profile, Model: s.model})
	if err != nil {
		return err
	}
	s.adopt(conv)
	s.switched("a new conversation")
	return nil
}

// resume is /resume ID.
func (s *session) resume(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errors.New("usage: /resume ID (see /sessions)")
	}
	conv, err := s.open(ctx, OpenRequest{Profile: s.conv.Info().Profile, Model: s.model, Resume: args[0]})
	if err != nil {
		return err
	}
	s.adopt(conv)
	s.switched(fmt.Sprintf("conversation %s (%d messages)", conv.Info().Session, conv.Info().Messages))
	return nil
}

// adopt makes conv the session's conversation, closing the one before.
// The resources followed on it are no longer followed, and the person is
// told.
func (s *session) adopt(conv Conversation) {
	if n := s.stopWatches(); n > 0 {
		fmt.Fprintf(s.scr, "no longer following %d resource(s) of the conversation before; /watch follows them again\n", n)
	}
	if s.conv != nil {
		s.conv.Close()
	}
	s.conv = conv
}

// switched reports the session's new state.
func (s *session) switched(what string) {
	fmt.Fprintf(s.scr, "now on %s\n", what)
	if p := s.conv.Info().Problem; p != "" {
		s.problem(p)
	}
}

// reopen opens the conversation again after a problem, and reports
// whether the model can now be reached. Quietly, a problem that remains
// is not repeated.
func (s *session) reopen(ctx context.Context, quiet bool) bool {
	in := s.conv.Info()
	conv, err := s.open(ctx, OpenRequest{Profile: in.Profile, Model: s.model, Resume: in.Session})
	if err == nil && conv.Info().Problem == "" {
		s.adopt(conv)
		if quiet {
			fmt.Fprintf(s.scr, "model %s is reachable now\n", textsafe.Line(conv.Info().Model))
		}
		return true
	}
	if err == nil {
		conv.Close()
	}
	if quiet {
		return false
	}
	if err == nil {
		s.problem(conv.Info().Problem)
	} else {
		s.scr.line(bad, "tai: "+err.Error())
	}
	return false
}
