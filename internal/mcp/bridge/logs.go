package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/vault"
)

// Logging: each line a server logs (notifications/message) is redacted,
// cut at MCP_LOG_LINE_MAX and kept in the vault, MCP_MAX_LOG_LINES per
// server (tai mcp logs shows them); one at error or above is also a
// notice, at most noticeBurst per noticeWindow per server.

const (
	// logQueueMax bounds the lines waiting for the vault: a flood faster
	// than the vault writes loses its oldest lines here already.
	logQueueMax = 1000
	// noticeBurst lines at error or above are shown per noticeWindow and
	// server; the rest are counted into the next notice.
	noticeBurst  = 3
	noticeWindow = 10 * time.Second
)

// logBook holds a bridge's lines on their way to the vault, and what its
// notices have shown.
type logBook struct {
	mu      sync.Mutex
	queue   []vault.MCPLogLine
	writing bool
	idle    *sync.Cond // signalled when writing ends
	shown   map[string]*noticeRate
}

// noticeRate counts one server's notices in the current window.
type noticeRate struct {
	start       time.Time
	shown, held int
}

// logged keeps one notifications/message of server, and tells the person
// of one at error or above.
func (b *Bridge) logged(server string, params json.RawMessage) {
	var p wire.LogMessageParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	line := vault.MCPLogLine{Server: server, At: time.Now(), Level: wire.Printable(p.Level, 16),
		Logger: wire.Printable(p.Logger, 64), Text: cutLine(b.Store.Redact(logText(p.Data)))}
	b.logs.mu.Lock()
	if len(b.logs.queue) >= logQueueMax {
		b.logs.queue = b.logs.queue[1:]
	}
	b.logs.queue = append(b.logs.queue, line)
	start := !b.logs.writing
	b.logs.writing = true
	held, show := b.logs.rate(server, line.Level)
	b.logs.mu.Unlock()
	if start {
		go b.writeLogs()
	}
	if show && b.LogNotice != nil {
		b.LogNotice(textsafe.Visible(logNotice(line, held)))
	}
}

// rate reports whether a line at level is shown as a notice now, and how
// many were held back before it; l.mu is held.
func (l *logBook) rate(server, level string) (int, bool) {
	if wire.LogSeverity(level) < wire.LogSeverity("error") {
		return 0, false
	}
	if l.shown == nil {
		l.shown = map[string]*noticeRate{}
	}
	r := l.shown[server]
	if r == nil || time.Since(r.start) >= noticeWindow {
		held := 0
		if r != nil {
			held = r.held
		}
		l.shown[server] = &noticeRate{start: time.Now(), shown: 1}
		return held, true
	}
	if r.shown < noticeBurst {
		r.shown++
		return 0, true
	}
	r.held++
	return 0, false
}

func logNotice(l vault.MCPLogLine, held int) string {
	n := fmt.Sprintf("MCP server %s logged %s: %s", l.Server, l.Level, firstLineOf(l.Text))
	if held > 0 {
		n += fmt.Sprintf(" (%d more such lines were not shown)", held)
	}
	return n + fmt.Sprintf(" — see `tai mcp logs %s`", l.Server)
}

// writeLogs stores the queued lines until none are left.
func (b *Bridge) writeLogs() {
	for {
		b.logs.mu.Lock()
		batch := b.logs.queue
		b.logs.queue = nil
		if len(batch) == 0 {
			b.logs.writing = false
			if b.logs.idle != nil {
				b.logs.idle.Broadcast()
			}
			b.logs.mu.Unlock()
			return
		}
		b.logs.mu.Unlock()
		// Best effort: a line not kept is only a log line.
		_ = b.Store.AppendMCPLogs(context.Background(), batch, wire.MaxLogLines)
	}
}

// flushLogs waits until the queued lines are stored.
func (b *Bridge) flushLogs() {
	b.logs.mu.Lock()
	defer b.logs.mu.Unlock()
	if b.logs.idle == nil {
		b.logs.idle = sync.NewCond(&b.logs.mu)
	}
	for b.logs.writing {
		b.logs.idle.Wait()
	}
}

// logText is a log line's data as text: a string as it is, anything else
// as its JSON.
func logText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, data) == nil {
		return buf.String()
	}
	return string(data)
}

// cutMark ends a line cut at MCP_LOG_LINE_MAX.
const cutMark = " …[cut]"

// cutLine cuts s to MCP_LOG_LINE_MAX bytes, on a rune boundary, mark
// included.
func cutLine(s string) string {
	if len(s) <= wire.LogLineMax {
		return s
	}
	return textsafe.Head(s, wire.LogLineMax-len(cutMark)) + cutMark
}

// firstLineOf is s up to its first line break, with a mark when more
// follows, at most 300 bytes.
func firstLineOf(s string) string {
	more := false
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s, more = s[:i], true
	}
	if len(s) > 300 {
		s, more = textsafe.Head(s, 300), true
	}
	if more {
		s += " …"
	}
	return s
}
