package config

import (
	"fmt"
	"maps"
	"slices"
)

// walk visits every string of e that may hold references, in a fixed
// order (command, args, env by name, url, headers by name, cwd), and
// replaces each with what fn returns. The label names the field for a
// person: args[1], env.API_KEY, headers.Authorization. walk writes into
// e's slices and maps, so callers that must not change e clone it first.
func walk(e *Entry, fn func(label, s string) string) {
	e.Command = fn("command", e.Command)
	for i, a := range e.Args {
		e.Args[i] = fn(fmt.Sprintf("args[%d]", i), a)
	}
	for _, k := range slices.Sorted(maps.Keys(e.Env)) {
		e.Env[k] = fn("env."+k, e.Env[k])
	}
	e.URL = fn("url", e.URL)
	for _, k := range slices.Sorted(maps.Keys(e.Headers)) {
		e.Headers[k] = fn("headers."+k, e.Headers[k])
	}
	e.Cwd = fn("cwd", e.Cwd)
}
