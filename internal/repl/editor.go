package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/peterh/liner"
)

// Editor is the LineReader of a terminal: line editing, history (kept in a
// file of the person's own), and completion of slash commands. It drives
// the process's own stdin and stdout, which must be a terminal.
type Editor struct {
	st      *liner.State
	history string
	busy    bool // a Prompt abandoned by its context still owns the terminal
}

var _ LineReader = (*Editor)(nil)

// OpenEditor puts the terminal into the editor's mode and loads the
// history file at historyPath ("" keeps no history). Close restores the
// terminal.
func OpenEditor(historyPath string) *Editor {
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	st.SetTabCompletionStyle(liner.TabPrints)
	e := &Editor{st: st, history: historyPath}
	if historyPath != "" {
		if f, err := os.Open(historyPath); err == nil {
			st.ReadHistory(f)
			f.Close()
		}
	}
	return e
}

// SetCompleter completes the line typed so far with what complete returns.
func (e *Editor) SetCompleter(complete func(line string) []string) {
	e.st.SetCompleter(complete)
}

// ReadLine implements LineReader.
func (e *Editor) ReadLine(ctx context.Context, prompt string) (string, error) {
	if e.busy {
		return "", errors.New("the terminal is still reading an abandoned answer")
	}
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	restore := withoutSignals()
	go func() {
		s, err := e.st.Prompt(prompt)
		restore()
		ch <- result{s, err}
	}()
	select {
	case r := <-ch:
		switch {
		case errors.Is(r.err, liner.ErrPromptAborted):
			return "", ErrInterrupted
		case errors.Is(r.err, io.EOF):
			fmt.Println() // liner leaves the cursor after the prompt
		}
		return r.s, r.err
	case <-ctx.Done():
		e.busy = true
		return "", ctx.Err()
	}
}

// Remember adds a line to the history and saves the history file. Lines
// typed with a leading space are not remembered, as in a shell.
func (e *Editor) Remember(line string) error {
	if strings.TrimSpace(line) == "" || strings.HasPrefix(line, " ") {
		return nil
	}
	e.st.AppendHistory(strings.ReplaceAll(line, "\n", " "))
	if e.history == "" {
		return nil
	}
	return e.save()
}

// save writes the history file, readable by its owner only, replacing the
// old one whole.
func (e *Editor) save() error {
	tmp, err := os.CreateTemp(filepath.Dir(e.history), ".repl_history-*")
	if err != nil {
		return fmt.Errorf("saving history: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := e.st.WriteHistory(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("saving history: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving history: %w", err)
	}
	return os.Rename(tmp.Name(), e.history)
}

// Close restores the terminal's mode.
func (e *Editor) Close() error { return e.st.Close() }
