package tools

import (
	"sync"

	"tai/internal/tools/schema"
)

// maxCompiled bounds the compiled schemas kept; bridged servers may
// redefine their tools without end, so the cache starts over past it.
const maxCompiled = 4096

// compiled keeps each schema text compiled once: CheckArgs runs on every
// call (twice in an agent step), and a tool's schema rarely changes.
var compiled struct {
	mu sync.RWMutex
	m  map[string]*schema.Schema
}

// compileSchema returns doc compiled, from the cache when it was seen.
func compileSchema(doc []byte) (*schema.Schema, error) {
	compiled.mu.RLock()
	s := compiled.m[string(doc)]
	compiled.mu.RUnlock()
	if s != nil {
		return s, nil
	}
	s, err := schema.Compile(doc)
	if err != nil {
		return nil, err
	}
	compiled.mu.Lock()
	defer compiled.mu.Unlock()
	if compiled.m == nil || len(compiled.m) >= maxCompiled {
		compiled.m = map[string]*schema.Schema{}
	}
	compiled.m[string(doc)] = s
	return s, nil
}
