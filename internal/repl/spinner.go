package repl

import (
	"fmt"
	"io"
	"time"
)

// spinnerFrames are drawn in turn, one per spinnerTick.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const spinnerTick = 100 * time.Millisecond

// spinner is the one-line activity indicator shown while tai waits on the
// model or a long tool. It lives on the screen's last line: every other
// write erases it first, and the next tick draws it again below.
type spinner struct {
	label string
	// detail is the running call's progress, "" before any.
	detail string
	start  time.Time
	frame  int
	shown  bool
	stop   chan struct{}
}

// startSpinner shows label with a spinner until stopSpinner or endLine;
// a running spinner just takes the new label. It is first drawn on the
// first tick, so a wait shorter than that (most tools) draws nothing. It
// does nothing when the screen is not a terminal.
func (s *screen) startSpinner(label string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.tty {
		return
	}
	if s.spin != nil {
		s.spin.label, s.spin.detail = label, ""
		return
	}
	sp := &spinner{label: label, start: time.Now(), stop: make(chan struct{})}
	s.spin = sp
	go s.tick(sp)
}

// spinnerDetail shows a running call's progress on the spinner's line,
// drawn at the next tick (so a flood of progress draws ten times a second
// at most); the spinner's end clears it.
func (s *screen) spinnerDetail(detail string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spin != nil {
		s.spin.detail = detail
	}
}

func (s *screen) tick(sp *spinner) {
	t := time.NewTicker(spinnerTick)
	defer t.Stop()
	for {
		select {
		case <-sp.stop:
			return
		case <-t.C:
			s.mu.Lock()
			if s.spin == sp {
				s.drawSpinner()
				sp.frame++
			}
			s.mu.Unlock()
		}
	}
}

// stopSpinner erases the spinner and ends it.
func (s *screen) stopSpinner() {
	if s.spin == nil {
		return
	}
	s.eraseSpinner()
	close(s.spin.stop)
	s.spin = nil
}

// drawSpinner draws the current frame on a line of its own; s.mu is held.
func (s *screen) drawSpinner() {
	sp := s.spin
	if sp == nil {
		return
	}
	if !sp.shown && !s.col0 {
		// Text is mid-line (a streamed answer); wait for a fresh line.
		return
	}
	detail := ""
	if sp.detail != "" {
		detail = sp.detail + " · "
	}
	line := fmt.Sprintf("%s %s… %s· %sCtrl-C to cancel", spinnerFrames[sp.frame%len(spinnerFrames)], sp.label, elapsed(time.Since(sp.start)), detail)
	line = s.fit(line)
	if s.color {
		line = sgr[dim] + line + reset
	}
	io.WriteString(s.w, "\r"+line+"\x1b[K")
	sp.shown = true
}

// eraseSpinner clears the spinner's line and leaves the cursor at its
// start; s.mu is held.
func (s *screen) eraseSpinner() {
	if s.spin != nil && s.spin.shown {
		io.WriteString(s.w, "\r\x1b[K")
		s.spin.shown = false
	}
}

// elapsed is the wait so far, once it is worth showing.
func elapsed(d time.Duration) string {
	if d < time.Second {
		return ""
	}
	return fmt.Sprintf("%ds ", int(d.Seconds()))
}
