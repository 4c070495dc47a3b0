package fs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"sync"

	"tai/internal/tools"
)

// The undo history keeps the last historyMax changes, and no more than
// historyBytes of old file content; older ones are forgotten.
const (
	historyMax   = 100
	historyBytes = 64 << 20
)

// stateKey is this package's key in tools.State.
var stateKey = tools.NewKey[*history]("fs.undo")

// history is the undo stack of one host.
type history struct {
	mu      sync.Mutex
	entries []*entry
	bytes   int
}

// entry is one undoable change: the files as they were before it, and how
// each was left, so undo can tell whether someone changed it since.
type entry struct {
	tool   string
	snaps  []snap
	rename *rename
}

type snap struct {
	path, name string
	existed    bool // before the change
	old        []byte
	mode       iofs.FileMode
	gone       bool     // the change removed the file
	sum        [32]byte // content after the change
}

// historyOf returns the host's history; with no host state, a throwaway
// one, so edits work and undo has nothing.
func historyOf(env *tools.Env) *history {
	if env == nil || env.State == nil {
		return &history{}
	}
	return tools.Value(env.State, stateKey, func() *history { return &history{} })
}

// push records c, forgetting the oldest entries beyond the caps.
func (h *history) push(c *change) {
	e := &entry{tool: c.tool, rename: c.rename}
	for _, f := range c.files {
		e.snaps = append(e.snaps, snap{path: f.path, name: f.name, existed: f.existed, old: f.old,
			mode: f.mode, gone: f.remove, sum: sha256.Sum256(f.new)})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, e)
	h.bytes += e.size()
	for len(h.entries) > historyMax || (h.bytes > historyBytes && len(h.entries) > 1) {
		h.bytes -= h.entries[0].size()
		h.entries = h.entries[1:]
	}
}

func (e *entry) size() int {
	n := 0
	for _, s := range e.snaps {
		n += len(s.old)
	}
	return n
}

// undo reverts the last change, or with a path the last change to that
// file, and forgets it. preview plans the same without writing or
// forgetting. Undo refuses when a file is no longer as tai left it.
func (h *history) undo(env *tools.Env, path string, preview bool) (*change, string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	idx, only := h.find(env, path)
	if idx < 0 {
		if path != "" {
			return nil, "", fmt.Errorf("no edit of %s by tai in this session to undo", env.Rel(env.Abs(path)))
		}
		return nil, "", errors.New("no edit by tai in this session to undo")
	}
	e := h.entries[idx]
	c := &change{tool: UndoEdit, rename: reverse(e.rename)}
	for i, s := range e.snaps {
		if only >= 0 && i != only {
			continue
		}
		f, err := s.revert()
		if err != nil {
			return nil, "", err
		}
		c.files = append(c.files, f)
	}
	if r := c.rename; r != nil && (!exists(r.from) || exists(r.to)) {
		return nil, "", fmt.Errorf("cannot move %s back to %s: one of them changed since tai moved it", r.fromName, r.toName)
	}
	summary := fmt.Sprintf("undid %s", e.tool)
	if preview {
		return c, summary, nil
	}
	if err := commit(env, c, false); err != nil {
		return nil, "", err
	}
	h.forget(idx, only)
	return c, summary, nil
}

// find locates the entry to undo and, when a path selects one file of a
// multi-file entry, that file's index (else -1).
func (h *history) find(env *tools.Env, path string) (int, int) {
	if path == "" {
		return len(h.entries) - 1, -1
	}
	abs := env.Abs(path)
	for i := len(h.entries) - 1; i >= 0; i-- {
		e := h.entries[i]
		if r := e.rename; r != nil && (r.from == abs || r.to == abs) {
			return i, -1
		}
		for j, s := range e.snaps {
			if s.path == abs {
				if len(e.snaps) == 1 {
					j = -1
				}
				return i, j
			}
		}
	}
	return -1, -1
}

func (h *history) forget(idx, only int) {
	e := h.entries[idx]
	if only >= 0 && len(e.snaps) > 1 {
		h.bytes -= len(e.snaps[only].old)
		e.snaps = append(e.snaps[:only:only], e.snaps[only+1:]...)
		return
	}
	h.bytes -= e.size()
	h.entries = append(h.entries[:idx:idx], h.entries[idx+1:]...)
}

// revert plans putting the file back, after checking it is as tai left it.
func (s snap) revert() (*fileChange, error) {
	cur, err := os.ReadFile(s.path)
	switch {
	case s.gone && err == nil:
		return nil, fmt.Errorf("%s was recreated after tai deleted it; undo would overwrite it", s.name)
	case s.gone:
	case err != nil:
		return nil, fmt.Errorf("%s is gone or unreadable since tai's edit (%v); nothing to undo", s.name, errors.Unwrap(err))
	case sha256.Sum256(cur) != s.sum:
		return nil, fmt.Errorf("%s changed after tai's edit; undo would discard those changes: read it and edit it instead", s.name)
	}
	return &fileChange{path: s.path, name: s.name, existed: !s.gone, old: cur, mode: s.mode, new: s.old, remove: !s.existed}, nil
}

func reverse(r *rename) *rename {
	if r == nil {
		return nil
	}
	return &rename{from: r.to, to: r.from, fromName: r.toName, toName: r.fromName}
}
