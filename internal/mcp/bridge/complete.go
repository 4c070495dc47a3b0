package bridge

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"tai/internal/mcp/wire"
)

// Completion serves a line editor: it must not hold typing up, so callers
// bound ctx with a short timeout, and a server not yet running is started
// in the background, where the next completion finds it.

// Complete asks an enabled server for the values argument arg of ref may
// take (completion/complete), given the partial value and the arguments
// already given (sent as context.arguments). ref is a prompt (RefPrompt,
// which must be approved) or a resource template (RefResource, its
// URI template). A server that is not running is started without asking
// anything: one whose launch changed since it was approved is refused.
// When ctx ends first, the start goes on for the next call.
func (b *Bridge) Complete(ctx context.Context, server string, ref wire.CompletionRef, arg, value string, given map[string]string) ([]string, error) {
	if err := b.usable(ctx, server); err != nil {
		return nil, err
	}
	if ref.Type == RefPrompt {
		if p, err := b.prompt(ctx, server, ref.Name, true); err != nil || p == nil {
			return nil, err
		}
	}
	c, err := b.background(ctx, server)
	if err != nil {
		return nil, err
	}
	defer b.release(server, c)
	p := wire.CompleteParams{Ref: ref}
	p.Argument.Name, p.Argument.Value = arg, value
	if len(given) > 0 {
		p.Context = &wire.CompleteContext{Arguments: given}
	}
	return c.c.Complete(ctx, p)
}

// The kinds of completion/complete's ref.
const (
	RefPrompt   = "ref/prompt"
	RefResource = "ref/resource"
)

// CompletePrompt completes the word being typed after a prompt's name:
// partial, after the words done. A NAME=VALUE word completes argument
// NAME; any other word the next argument not named (as PromptArgs assigns
// them), after NAME= for each argument not given yet whose name starts
// with it (none for an empty word). It returns whole words (NAME= kept)
// and asks the server with the arguments the done words give as context.
func (b *Bridge) CompletePrompt(ctx context.Context, server, prompt string, done []string, partial string) ([]string, error) {
	p, err := b.prompt(ctx, server, prompt, true)
	if err != nil {
		return nil, err
	}
	args, _, err := assignArgs(*p, done)
	if err != nil {
		return nil, err
	}
	arg, prefix, value := "", "", partial
	var names []string
	if k, v, ok := strings.Cut(partial, "="); ok && p.takes(k) {
		arg, prefix, value = k, k+"=", v
	} else {
		for _, a := range p.Arguments {
			if _, given := args[a.Name]; !given && partial != "" && strings.HasPrefix(a.Name, partial) {
				names = append(names, a.Name+"=")
			}
		}
		for _, a := range p.Arguments {
			if _, given := args[a.Name]; !given {
				arg = a.Name
				break
			}
		}
	}
	if arg == "" {
		return nil, fmt.Errorf("prompt %s takes no more arguments", prompt)
	}
	vals, err := b.Complete(ctx, server, wire.CompletionRef{Type: RefPrompt, Name: prompt}, arg, value, args)
	for i := range vals {
		vals[i] = prefix + vals[i]
	}
	if err != nil && len(names) > 0 {
		return names, nil
	}
	return append(names, vals...), err
}

// unaskedKey marks a context whose connection may ask the person nothing.
type unaskedKey struct{}

// unasked reports whether ctx may ask the person nothing (a consent
// screen in the middle of typing would not be seen for what it is).
func unasked(ctx context.Context) bool { return ctx.Value(unaskedKey{}) != nil }

// background returns the server's connection, acquired (release it),
// starting it in a goroutine of its own that outlives ctx and asks
// nothing, so a start that takes longer than ctx allows is there for the
// next caller; a connection nobody waited for is released at once, so it
// closes when idle.
func (b *Bridge) background(ctx context.Context, server string) (*conn, error) {
	type result struct {
		c   *conn
		err error
	}
	done := make(chan result, 1)
	var mu sync.Mutex
	abandoned := false
	start := context.WithValue(context.WithoutCancel(ctx), unaskedKey{}, true)
	go func() {
		c, err := b.client(start, server)
		if err == nil {
			c.acquire()
		}
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			if err == nil {
				b.release(server, c)
			}
			return
		}
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		return r.c, r.err
	case <-ctx.Done():
		mu.Lock()
		abandoned = true
		mu.Unlock()
		select {
		case r := <-done:
			if r.err == nil {
				b.release(server, r.c)
			}
		default:
		}
		return nil, ctx.Err()
	}
}
