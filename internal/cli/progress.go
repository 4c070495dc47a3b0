package cli

import (
	"encoding/json"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"golang.org/x/term"

	"tai/internal/tools"
)

// liveLine is a running call's progress on one terminal line, replaced in
// place and cleared when the call ends. Its reports arrive at most ten a
// second (the bridge throttles them), so it draws each.
type liveLine struct {
	mu    sync.Mutex
	w     io.Writer
	width func() int
	shown bool
}

// progressLine is the live line on stderr when stderr is a terminal, nil
// otherwise (nothing is drawn).
func (a *App) progressLine() *liveLine {
	f, ok := a.Stderr.(*os.File)
	if !ok || !a.IsTerminal(f) {
		return nil
	}
	return &liveLine{w: a.Stderr, width: func() int {
		w, _, err := term.GetSize(int(f.Fd()))
		if err != nil || w <= 0 {
			return 80
		}
		return w
	}}
}

func (l *liveLine) show(p tools.Progress) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	line := "⋯ " + p.Line()
	if w := l.width() - 1; utf8.RuneCountInString(line) > w {
		line = string([]rune(line)[:max(w-1, 0)]) + "…"
	}
	io.WriteString(l.w, "\r"+line+"\x1b[K")
	l.shown = true
}

// clear erases the line, if it is shown, before anything else is written.
func (l *liveLine) clear() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		io.WriteString(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// progressEvent is a call's progress as a --json line.
func progressEvent(p tools.Progress) any {
	return struct {
		Type string `json:"type"`
		tools.Progress
	}{"progress", p}
}

// jsonLines writes one JSON value a line, from any goroutine.
type jsonLines struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (j *jsonLines) write(v any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.enc.Encode(v)
}
