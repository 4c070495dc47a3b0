package selector

import (
	"slices"
	"sync"

	"tai/internal/tools"
)

var loadedKey = tools.NewKey[*loadedSet]("selector.loaded")

// loadedSet is the tools tool_search loaded this turn, in load order.
type loadedSet struct {
	mu    sync.Mutex
	names []string
}

// Load adds names to the tools offered for the rest of env's current
// turn. It reports false when the host keeps no state, so nothing can be
// loaded.
func Load(env *tools.Env, names ...string) bool {
	if env == nil || env.State == nil {
		return false
	}
	s := tools.TurnValue(env.State, loadedKey, func() *loadedSet { return &loadedSet{} })
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if !slices.Contains(s.names, n) {
			s.names = append(s.names, n)
		}
	}
	return true
}

// Loaded returns the tools loaded in env's current turn.
func Loaded(env *tools.Env) []string {
	if env == nil || env.State == nil {
		return nil
	}
	s := tools.TurnValue(env.State, loadedKey, func() *loadedSet { return &loadedSet{} })
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.names...)
}
