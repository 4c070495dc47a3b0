package tools

import (
	"fmt"
	"sort"
	"sync"
)

// Registry holds the tools an agent can call: the native catalogue plus,
// through Fallback, whatever the MCP bridge provides.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]*Tool
	// Fallback resolves names the registry does not hold (bridged mcp_*
	// tools). It may be nil.
	Fallback Source
}

// Source supplies tools that are not registered natively.
type Source interface {
	// Tools lists every tool the source offers now, without connecting.
	Tools() []*Tool
	// Lookup finds one by its tai-side name.
	Lookup(name string) (*Tool, bool)
}

// NewRegistry returns a registry holding tools.
func NewRegistry(tools ...*Tool) *Registry {
	r := &Registry{tools: map[string]*Tool{}}
	for _, t := range tools {
		r.Register(t)
	}
	return r
}

// Register adds t; a second tool of the same name is a programming error.
func (r *Registry) Register(t *Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[t.Name]; dup {
		panic(fmt.Sprintf("tools: %q registered twice", t.Name))
	}
	r.tools[t.Name] = t
}

// Lookup finds a tool by name, native first, then the fallback.
func (r *Registry) Lookup(name string) (*Tool, bool) {
	r.mu.RLock()
	t, ok := r.tools[name]
	fb := r.Fallback
	r.mu.RUnlock()
	if ok {
		return t, true
	}
	if fb != nil {
		return fb.Lookup(name)
	}
	return nil, false
}

// Native returns the natively registered tools, sorted by name.
func (r *Registry) Native() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// All returns native tools followed by the fallback's.
func (r *Registry) All() []*Tool {
	out := r.Native()
	r.mu.RLock()
	fb := r.Fallback
	r.mu.RUnlock()
	if fb != nil {
		out = append(out, fb.Tools()...)
	}
	return out
}
