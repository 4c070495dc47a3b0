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
// (background jobs, undo snapshots). Each group stores one value under its
// own key and creates it on first use.
type State struct {
	mu      sync.Mutex
	m       map[string]any
	turn    map[string]any // dropped by NewTurn
	closers []func()
	closed  bool
}

// Get returns the value stored under key, creating it with mk when absent.
func (s *State) Get(key string, mk func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return getOrMake(&s.m, key, mk)
}

// getOrMake returns (*m)[key], making the map and the value when absent.
func getOrMake(m *map[string]any, key string, mk func() any) any {
	if *m == nil {
		*m = map[string]any{}
	}
	v, ok := (*m)[key]
	if !ok {
		v = mk()
		(*m)[key] = v
	}
	return v
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

// Turn is Get for state that lasts one turn (the tools tool_search loaded):
// NewTurn drops it.
func (s *State) Turn(key string, mk func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return getOrMake(&s.turn, key, mk)
}

// NewTurn drops every value stored with Turn. The agent calls it as each
// turn starts.
func (s *State) NewTurn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turn = nil
}
