package tools

import (
	"fmt"
	"sync"
)

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// State is per-host storage for tool groups that keep state between calls
// (background jobs, undo snapshots). Each group declares a Key for its one
// value, with the value's type, and reads it with Value (or TurnValue),
// which creates it on first use: the value comes back typed, and no two
// groups can reach each other's value by a name.
type State struct {
	mu      sync.Mutex
	m       map[any]any
	turn    map[any]any // dropped by NewTurn
	closers []func()
	closed  bool
}

// Key names one kind of value a State keeps; T is the value's type. Two
// keys are the same only with the same name and the same type.
type Key[T any] struct{ name string }

// NewKey is a key for a value of type T; the name says whose it is
// ("shell.jobs").
func NewKey[T any](name string) Key[T] { return Key[T]{name} }

// Value returns k's value in s, creating it with mk when absent.
func Value[T any](s *State, k Key[T], mk func() T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return getOrMake(&s.m, k, mk)
}

// TurnValue is Value for state that lasts one turn (the tools tool_search
// loaded): NewTurn drops it.
func TurnValue[T any](s *State, k Key[T], mk func() T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return getOrMake(&s.turn, k, mk)
}

// getOrMake returns (*m)[k], making the map and the value when absent.
func getOrMake[T any](m *map[any]any, k Key[T], mk func() T) T {
	if *m == nil {
		*m = map[any]any{}
	}
	v, ok := (*m)[k]
	if !ok {
		v = mk()
		(*m)[k] = v
	}
	return v.(T)
}

// OnClose registers fn to run when the host closes s. Groups that start
// processes (background jobs) stop them there. After Close, fn runs at once.
func (s *State) OnClose(fn func()) {
	s.mu.Lock()
	if !s.closed {
		s.closers = append(s.closers, fn)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	fn()
}

// Close runs the functions given to OnClose, most recent first, and waits
// for them. Hosts call it when the session that owns s ends (tai exits, a
// subagent finishes). A second Close does nothing.
func (s *State) Close() {
	s.mu.Lock()
	fns := s.closers
	s.closers, s.closed = nil, true
	s.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// NewTurn drops every value stored with TurnValue. The agent calls it as each
// turn starts.
func (s *State) NewTurn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turn = nil
}
