package repl

import (
	"context"
	"errors"
	"fmt"
)

// DirAdder is a Conversation whose workspace can grow (/add-dir).
type DirAdder interface {
	// AddDir adds dir to the workspace and says what it did.
	AddDir(ctx context.Context, dir string) (string, error)
}

func (s *session) addDir(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errors.New("usage: /add-dir DIR")
	}
	d, ok := s.conv.(DirAdder)
	if !ok {
		return errors.New("this conversation cannot add directories")
	}
	said, err := d.AddDir(ctx, args[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(s.scr, said)
	return nil
}
