package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// LineReader reads what the person types, one line at a time. The REPL's
// prompt, its consent screens and ask_user all read through the same one,
// so no two readers ever compete for the terminal.
type LineReader interface {
	// ReadLine shows prompt and returns the line typed, without its
	// newline. It returns io.EOF at the end of input (Ctrl-D on an empty
	// line), ErrInterrupted when the person pressed Ctrl-C, and ctx's
	// error if ctx ends first.
	ReadLine(ctx context.Context, prompt string) (string, error)
}

// KeyReader is a LineReader that can also read a single key press, for
// one-key answers (approvals).
type KeyReader interface {
	LineReader
	// ReadKey shows prompt and returns the first of keys pressed, 0x1b
	// for Escape or '\r' for Enter; Ctrl-C is ErrInterrupted.
	ReadKey(ctx context.Context, prompt, keys string) (rune, error)
}

// ErrInterrupted is ReadLine's answer to Ctrl-C.
var ErrInterrupted = errors.New("interrupted")

// PlainReader is a LineReader without line editing, for input that is not
// a terminal (or a terminal the editor cannot drive). Prompts go to Out.
type PlainReader struct {
	in   io.Reader
	out  io.Writer
	once sync.Once
	next chan lineResult
	mu   sync.Mutex
}

type lineResult struct {
	s   string
	err error
}

// NewPlainReader reads lines from in, showing prompts on out.
func NewPlainReader(in io.Reader, out io.Writer) *PlainReader {
	return &PlainReader{in: in, out: out}
}

// ReadLine implements LineReader. One goroutine reads ahead a line at a
// time, so a read abandoned by ctx is not lost: the next ReadLine gets it.
func (p *PlainReader) ReadLine(ctx context.Context, prompt string) (string, error) {
	p.once.Do(func() {
		p.next = make(chan lineResult)
		go p.readLines()
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.out, prompt)
	select {
	case r, ok := <-p.next:
		if !ok {
			return "", io.EOF
		}
		return r.s, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (p *PlainReader) readLines() {
	defer close(p.next)
	br := bufio.NewReader(p.in)
	for {
		s, err := br.ReadString('\n')
		if s == "" && err != nil {
			if err != io.EOF {
				p.next <- lineResult{err: err}
			}
			return
		}
		p.next <- lineResult{s: strings.TrimRight(s, "\r\n")}
	}
}
