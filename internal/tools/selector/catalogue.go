package selector

import (
	"sync"

	"tai/internal/tools"
)

// Catalogue keeps the index of a registry's tools, native and bridged, and
// rebuilds it only when the registry's tool list changes: a tool added or
// removed, or a Source handing out new *tools.Tool values. A Source must
// hand out a new value when a tool's name, description or schema changes.
type Catalogue struct {
	Registry *tools.Registry

	mu    sync.Mutex
	tools []*tools.Tool
	ix    *Index
}

// Index returns the index of the registry's current tools.
func (c *Catalogue) Index() *Index {
	all := c.Registry.All()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix == nil || !samePointers(all, c.tools) {
		c.ix, c.tools = NewIndex(all), all
	}
	return c.ix
}

func samePointers(a, b []*tools.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var catalogueKey = tools.NewKey[*catalogues]("selector.catalogue")

// catalogues is the per-host set of catalogues, one per registry.
type catalogues struct {
	mu sync.Mutex
	m  map[*tools.Registry]*Catalogue
}

// CatalogueFor returns the catalogue of reg shared by everything in env's
// host (the selector each step, tool_search), so the index is built once
// per catalogue change, not once per step or per search. Without host
// state it returns a fresh one.
func CatalogueFor(env *tools.Env, reg *tools.Registry) *Catalogue {
	if env == nil || env.State == nil {
		return &Catalogue{Registry: reg}
	}
	cs := tools.Value(env.State, catalogueKey, func() *catalogues { return &catalogues{m: map[*tools.Registry]*Catalogue{}} })
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c, ok := cs.m[reg]
	if !ok {
		c = &Catalogue{Registry: reg}
		cs.m[reg] = c
	}
	return c
}
