package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tai/internal/mcp/wire"
)

// MinTimeout is the least a server's own call or start limit may be.
const MinTimeout = time.Second

// A Limit is one of a server's own timeouts: its bounds, the cap its
// upper bound is, and the cap it replaces.
type Limit struct {
	Max      time.Duration
	MaxCap   string // MCP_CALL_MAX_TOTAL
	Replaces string // MCP_CALL_TIMEOUT
	Default  time.Duration
}

// CallLimit bounds a server's own limit on each request after the
// handshake; StartLimit its limit on a start plus handshake.
var (
	CallLimit  = Limit{Max: wire.CallMaxTotal, MaxCap: "MCP_CALL_MAX_TOTAL", Replaces: "MCP_CALL_TIMEOUT", Default: wire.CallTimeout}
	StartLimit = Limit{Max: wire.MaxStartup, MaxCap: "MCP_MAX_STARTUP", Replaces: "MCP_CONNECT_TIMEOUT", Default: wire.ConnectTimeout}
)

// In reports whether d is within l's bounds.
func (l Limit) In(d time.Duration) bool { return d >= MinTimeout && d <= l.Max }

// Range says l's bounds in seconds, for errors.
func (l Limit) Range() string {
	return fmt.Sprintf("%s to %s (%s)", Seconds(MinTimeout), Seconds(l.Max), l.MaxCap)
}

// Seconds writes d as a number of seconds: 90s, 1.5s.
func Seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// readCallTimeout takes a server's own limit on each request after the
// handshake (Entry.CallTimeout): Codex's tool_timeout_sec, in seconds,
// or timeout, which Gemini CLI writes in milliseconds and Cline and
// Crush in seconds. A timeout of 1000 or more is read as milliseconds,
// less as seconds, and a note says which.
func readCallTimeout(d *draft, k string, v any) error {
	n, err := wantSeconds(v, at(d.where, k))
	if err != nil {
		return err
	}
	unit := "seconds"
	if k == "timeout" {
		unit = "seconds, as Cline and Crush write it"
		if n >= 1000 {
			n, unit = n/1000, "milliseconds, as Gemini CLI writes it"
		}
	}
	t, err := limitOf(d, k, v, n, unit, CallLimit)
	if err != nil {
		return err
	}
	if d.e.CallTimeout != 0 && d.e.CallTimeout != t {
		return fmt.Errorf("%s: timeout and tool_timeout_sec disagree: keep one", d.where)
	}
	d.e.CallTimeout = t
	read := k + ":"
	if k == "timeout" {
		read = fmt.Sprintf("timeout %v read as %s (%s):", v, Seconds(t), unit)
	}
	d.e.Notes = append(d.e.Notes, fmt.Sprintf("%s each request may wait up to %s for an answer or progress, in place of MCP_CALL_TIMEOUT", read, Seconds(t)))
	return nil
}

// readStartup takes Codex's startup timeout, the server's own limit on a
// start plus handshake (Entry.StartupTimeout).
func readStartup(d *draft, k string, v any) error {
	n, err := wantSeconds(v, at(d.where, k))
	if err != nil {
		return err
	}
	unit := "seconds"
	if k == "startup_timeout_ms" {
		n, unit = n/1000, "milliseconds"
	}
	t, err := limitOf(d, k, v, n, unit, StartLimit)
	if err != nil {
		return err
	}
	if d.e.StartupTimeout != 0 && d.e.StartupTimeout != t {
		return fmt.Errorf("%s: startup_timeout_sec and startup_timeout_ms disagree: keep one", d.where)
	}
	d.e.StartupTimeout = t
	d.e.Notes = append(d.e.Notes, fmt.Sprintf("%s: each start may take up to %s, in place of MCP_CONNECT_TIMEOUT (the first start at registration keeps tai's own allowance when longer)",
		k, Seconds(t)))
	return nil
}

// limitOf is n seconds, read from v at key k in unit, as a duration
// within l's bounds, or an error naming the key and the range.
func limitOf(d *draft, k string, v any, n float64, unit string, l Limit) (time.Duration, error) {
	if !(n >= MinTimeout.Seconds() && n <= l.Max.Seconds()) { // NaN too
		return 0, fmt.Errorf("%s: %v %s is out of range: give %s", at(d.where, k), v, strings.SplitN(unit, ",", 2)[0], l.Range())
	}
	return time.Duration(n * float64(time.Second)), nil
}

// wantSeconds reads a number of a TOML or JSON config.
func wantSeconds(v any, where string) (float64, error) {
	switch n := v.(type) {
	case int64:
		return float64(n), nil
	case float64:
		return n, nil
	case json.Number:
		f, err := n.Float64()
		if err == nil {
			return f, nil
		}
	}
	return 0, typeError(where, "a number", v)
}
