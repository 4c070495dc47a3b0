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
	mu sync.Mutex
	m  map[string]any
}

// Get returns the value stored under key, creating it with mk when absent.
func (s *State) Get(key string, mk func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]any{}
	}
	v, ok := s.m[key]
	if !ok {
		v = mk()
		s.m[key] = v
	}
	return v
}
