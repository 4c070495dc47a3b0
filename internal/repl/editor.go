package repl

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"tai/internal/textsafe"
)

// Editor is the LineReader of a terminal: a line editor of tai's own that
// edits a message of several lines (Alt-Enter, or a backslash before
// Enter, starts a new one,
// a bracketed paste arrives whole however many lines it has), keeps a
// history in a file of the person's own, completes slash commands with
// Tab, and reads single keys for approvals. It drives the process's own
// stdin and stdout, which must be a terminal; the terminal is in raw mode
// only while the editor reads, so Ctrl-C during a turn stays a signal.
//
// It uses only escape sequences every VT100-style terminal (and the
// Windows console in VT mode) understands, and golang.org/x/term for raw
// mode and the window size, which build everywhere.
type Editor struct {
	in      *os.File
	out     io.Writer
	history string

	past     []string // history entries, oldest first
	complete func(line string) []string

	// pending holds bytes read but not yet decoded; reads is the one read
	// in flight, whose result the next reader takes, so a read abandoned
	// by a context is never lost.
	pending []byte
	reads   chan readResult
	waiting bool

	// notes are lines to show while a message is being typed
	// (Interject); noting is set while ReadLine takes them.
	notes  chan string
	noting bool
	note   []string // taken from notes, not yet shown
}

// notesMax bounds the lines waiting for Interject; later ones are dropped.
const notesMax = 32

type readResult struct {
	b   []byte
	err error
}

var _ LineReader = (*Editor)(nil)

// escWait is how long a lone ESC waits for the rest of an escape sequence
// before it counts as the Escape key. Terminals send a sequence in one
// write; 50 ms is what line editors commonly allow for slow links.
const escWait = 50 * time.Millisecond

// historyMax bounds the entries kept.
const historyMax = 1000

// OpenEditor returns an editor on the process's terminal and loads the
// history file at historyPath ("" keeps no history).
func OpenEditor(historyPath string) *Editor {
	e := NewEditor(os.Stdin, os.Stdout)
	e.history = historyPath
	if historyPath != "" {
		if f, err := os.Open(historyPath); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if l := sc.Text(); strings.TrimSpace(l) != "" {
					e.past = append(e.past, l)
				}
			}
			f.Close()
		}
	}
	return e
}

// NewEditor returns an editor reading the terminal in and drawing on out
// (a subcommand's questions go to stderr), without history.
func NewEditor(in *os.File, out io.Writer) *Editor {
	vtOutput(out)
	return &Editor{in: in, out: out, reads: make(chan readResult, 1), notes: make(chan string, notesMax)}
}

// Interject shows line above the message being typed, which is drawn
// again beneath it; when nothing is being typed, it waits for the next
// prompt. line is written as it is: the caller has made it safe (the
// REPL's screen does). It may be called from any goroutine and never
// blocks: past notesMax waiting lines, it drops line.
func (e *Editor) Interject(line string) {
	select {
	case e.notes <- line:
	default:
	}
}

// SetCompleter completes the line typed so far with what complete returns
// (whole lines).
func (e *Editor) SetCompleter(complete func(line string) []string) { e.complete = complete }

// raw puts the terminal into raw mode and bracketed paste; the returned
// function undoes both.
func (e *Editor) raw() (restore func(), err error) {
	st, err := term.MakeRaw(int(e.in.Fd()))
	if err != nil {
		return nil, err
	}
	io.WriteString(e.out, pasteOn)
	return func() {
		io.WriteString(e.out, pasteOff)
		term.Restore(int(e.in.Fd()), st)
	}, nil
}

func (e *Editor) size() (width, height int) {
	w, h, err := term.GetSize(int(e.in.Fd()))
	if err != nil || w <= 0 {
		return 80, 24
	}
	return w, h
}

// fill reads more input into pending. A zero wait blocks until input
// comes or ctx ends; otherwise fill gives up after wait, reporting false.
func (e *Editor) fill(ctx context.Context, wait time.Duration) (bool, error) {
	if !e.waiting {
		e.waiting = true
		go func() {
			buf := make([]byte, 4096)
			n, err := e.in.Read(buf)
			e.reads <- readResult{buf[:n], err}
		}()
	}
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	var notes chan string
	if e.noting {
		notes = e.notes
	}
	select {
	case n := <-notes:
		e.note = append(e.note, n)
		return false, nil
	case r := <-e.reads:
		e.waiting = false
		e.pending = append(e.pending, r.b...)
		if r.err != nil && len(r.b) == 0 {
			return false, r.err
		}
		return true, nil
	case <-timeout:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// next returns the next key, reading as needed.
func (e *Editor) next(ctx context.Context) (key, error) {
	for {
		if len(e.note) > 0 {
			n := e.note[0]
			e.note = e.note[1:]
			return key{kind: keyNote, text: n}, nil
		}
		if k, n := decodeKey(e.pending, false); n > 0 {
			e.pending = e.pending[n:]
			return k, nil
		}
		if len(e.pending) > 0 {
			// An unfinished key: wait briefly for the rest, else take it
			// as it is (a lone ESC is Escape).
			got, err := e.fill(ctx, escWait)
			if err != nil {
				return key{}, err
			}
			if !got && len(e.note) == 0 {
				k, n := decodeKey(e.pending, true)
				e.pending = e.pending[n:]
				return k, nil
			}
			continue
		}
		if _, err := e.fill(ctx, 0); err != nil {
			return key{}, err
		}
	}
}

// ReadLine implements LineReader: Enter submits, Alt-Enter (or a
// backslash before Enter) starts a new line, a paste is inserted whole.
func (e *Editor) ReadLine(ctx context.Context, prompt string) (string, error) {
	restore, err := e.raw()
	if err != nil {
		return "", err
	}
	defer restore()
	e.noting = true
	defer func() { e.noting = false }()
	v := &view{out: e.out}
	b := newBuffer("")
	hist, saved := len(e.past), ""
	draw := func() {
		w, h := e.size()
		v.draw(b, prompt, w, h)
	}
	draw()
	for {
		k, err := e.next(ctx)
		if err != nil {
			v.leave()
			return "", err
		}
		switch k.kind {
		case keyRune:
			b.insert(string(k.r))
		case keyPaste:
			b.insert(k.text)
		case keyNewline:
			b.newline()
		case keyEnter:
			if l := b.lines[b.row]; b.col == len(l) && b.col > 0 && l[b.col-1] == '\\' {
				b.backspace()
				b.newline()
				break
			}
			v.leave()
			return b.String(), nil
		case keyBackspace:
			b.backspace()
		case keyDelete:
			b.del()
		case keyEOF:
			if b.empty() {
				v.leave()
				return "", io.EOF
			}
			b.del()
		case keyInterrupt:
			v.leave()
			return "", ErrInterrupted
		case keyLeft:
			b.left()
		case keyRight:
			b.right()
		case keyHome:
			b.col = 0
		case keyEnd:
			b.col = len(b.lines[b.row])
		case keyKillEnd:
			b.killEnd()
		case keyKillStart:
			b.killStart()
		case keyKillWord:
			b.killWord()
		case keyUp, keyDown:
			d := map[keyKind]int{keyUp: -1, keyDown: 1}[k.kind]
			if b.vertical(d) {
				break
			}
			if n := hist + d; n >= 0 && n <= len(e.past) {
				if hist == len(e.past) {
					saved = b.String()
				}
				hist = n
				if n == len(e.past) {
					b.set(saved)
				} else {
					b.set(e.past[n])
				}
			}
		case keyTab:
			e.completeIn(b, v)
		case keyClear:
			io.WriteString(e.out, "\x1b[H\x1b[2J")
			v.rows, v.crow = 0, 0
		case keyNote:
			v.erase()
			fmt.Fprintf(e.out, "%s\r\n", k.text)
		}
		draw()
	}
}

// completeIn completes a one-line buffer: one candidate replaces it, more
// extend it to their common prefix, or are listed beneath it, shown
// visibly (an MCP server's values are untrusted).
func (e *Editor) completeIn(b *buffer, v *view) {
	if e.complete == nil || len(b.lines) > 1 {
		return
	}
	line := b.String()
	c := e.complete(line)
	switch {
	case len(c) == 1:
		b.set(c[0])
	case len(c) > 1:
		p := c[0]
		for _, s := range c[1:] {
			for !strings.HasPrefix(s, p) {
				p = p[:len(p)-1]
			}
		}
		if len(p) > len(line) {
			b.set(p)
			return
		}
		v.leave()
		fmt.Fprintf(e.out, "%s\r\n", textsafe.VisibleLine(strings.Join(lastWords(c, line), "  ")))
	}
}

// lastWords is how candidates are listed: each without the part of line
// before the word being completed, which they share.
func lastWords(c []string, line string) []string {
	start := strings.LastIndexAny(line, " \t") + 1
	out := make([]string, len(c))
	for i, s := range c {
		out[i] = strings.TrimPrefix(s, line[:start])
	}
	return out
}

// ReadKey shows prompt and waits for one of keys (lower case letters),
// Escape or Enter; it returns the key pressed (Escape as 0x1b, Enter as
// '\r'). Other keys ring the bell. Ctrl-C is ErrInterrupted, Ctrl-D io.EOF.
func (e *Editor) ReadKey(ctx context.Context, prompt, keys string) (rune, error) {
	restore, err := e.raw()
	if err != nil {
		return 0, err
	}
	defer restore()
	io.WriteString(e.out, prompt)
	for {
		k, err := e.next(ctx)
		if err != nil {
			io.WriteString(e.out, "\r\n")
			return 0, err
		}
		switch k.kind {
		case keyInterrupt:
			io.WriteString(e.out, "\r\n")
			return 0, ErrInterrupted
		case keyEOF:
			io.WriteString(e.out, "\r\n")
			return 0, io.EOF
		case keyEscape:
			return 0x1b, nil
		case keyEnter:
			return '\r', nil
		case keyRune:
			r := k.r
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			if strings.ContainsRune(keys, r) {
				return r, nil
			}
		}
		io.WriteString(e.out, "\a")
	}
}

// Remember adds a message to the history and saves the history file.
// Messages typed with a leading space are not remembered, as in a shell;
// a message of several lines is kept as one line.
func (e *Editor) Remember(line string) error {
	if strings.TrimSpace(line) == "" || strings.HasPrefix(line, " ") {
		return nil
	}
	line = strings.ReplaceAll(line, "\n", " ")
	if n := len(e.past); n == 0 || e.past[n-1] != line {
		e.past = append(e.past, line)
	}
	if len(e.past) > historyMax {
		e.past = e.past[len(e.past)-historyMax:]
	}
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
	w := bufio.NewWriter(tmp)
	for _, l := range e.past {
		w.WriteString(l + "\n")
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving history: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving history: %w", err)
	}
	return os.Rename(tmp.Name(), e.history)
}

// Close gives the terminal back; the editor leaves it in its normal mode
// after every read, so there is nothing to restore.
func (e *Editor) Close() error { return nil }

// view is the message as drawn under the cursor: how many rows it took
// and which of them the cursor is on, so the next draw can replace it.
type view struct {
	out  io.Writer
	rows int // rows drawn
	crow int // the cursor's row among them
}

// draw replaces what was drawn with b. A message taller than the terminal
// shows the rows around the cursor.
func (v *view) draw(b *buffer, prompt string, width, height int) {
	rows, crow, ccol := b.layout(prompt, width)
	top := 0
	if limit := max(height-1, 1); len(rows) > limit {
		top = min(max(crow-limit+1, 0), len(rows)-limit)
		rows = rows[top : top+limit]
	}
	var s strings.Builder
	if v.crow > 0 {
		fmt.Fprintf(&s, "\x1b[%dA", v.crow)
	}
	s.WriteString("\r\x1b[J")
	s.WriteString(strings.Join(rows, "\r\n"))
	if up := len(rows) - 1 - (crow - top); up > 0 {
		fmt.Fprintf(&s, "\x1b[%dA", up)
	}
	s.WriteString("\r")
	if ccol > 0 {
		fmt.Fprintf(&s, "\x1b[%dC", ccol)
	}
	io.WriteString(v.out, s.String())
	v.rows, v.crow = len(rows), crow-top
}

// erase removes the message drawn, leaving the cursor where it began.
func (v *view) erase() {
	if v.crow > 0 {
		fmt.Fprintf(v.out, "\x1b[%dA", v.crow)
	}
	io.WriteString(v.out, "\r\x1b[J")
	v.rows, v.crow = 0, 0
}

// leave moves the cursor below the message, to the start of a new line.
func (v *view) leave() {
	if down := v.rows - 1 - v.crow; down > 0 {
		fmt.Fprintf(v.out, "\x1b[%dB", down)
	}
	io.WriteString(v.out, "\r\n")
	v.rows, v.crow = 0, 0
}
