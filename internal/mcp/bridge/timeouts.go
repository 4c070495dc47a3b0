package bridge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
)

// A server's own timeouts, from a pasted config (tool_timeout_sec,
// timeout, startup_timeout_sec, startup_timeout_ms) or tai mcp set: its
// limit on each request after the handshake, in place of
// MCP_CALL_TIMEOUT, and on a start plus handshake, in place of
// MCP_CONNECT_TIMEOUT.
const (
	SettingTimeout        = "timeout"
	SettingStartupTimeout = "startup_timeout"
)

// limits are the settings that are durations, each with its bounds.
var limits = map[string]config.Limit{
	SettingTimeout:        config.CallLimit,
	SettingStartupTimeout: config.StartLimit,
}

// parseLimit reads a duration setting as tai mcp set takes it (90s, 2m,
// a number of seconds, or default) and returns the value to store: ""
// for the default.
func parseLimit(key, v string) (string, error) {
	l := limits[key]
	if v == "default" {
		return "", nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		n, nerr := strconv.ParseFloat(v, 64)
		if nerr != nil || strings.ContainsAny(v, "xXpP_") {
			return "", &SettingError{fmt.Sprintf("%s=%q: write a duration like 90s or 2m, a number of seconds, or default", key, v)}
		}
		d = -1
		if n >= config.MinTimeout.Seconds() && n <= l.Max.Seconds() { // not NaN, not past a duration
			d = time.Duration(n * float64(time.Second))
		}
	}
	if !l.In(d) {
		return "", &SettingError{fmt.Sprintf("%s=%s is out of range: give %s, or default (%s)", key, v, l.Range(), config.Seconds(l.Default))}
	}
	if d == l.Default {
		return "", nil
	}
	return config.Seconds(d), nil
}

// limitSettings are the settings a registration stores for e's pasted
// timeouts; a key the paste does not give is left as it was.
func limitSettings(e config.Entry) map[string]string {
	out := map[string]string{}
	for key, d := range map[string]time.Duration{SettingTimeout: e.CallTimeout, SettingStartupTimeout: e.StartupTimeout} {
		if d == 0 {
			continue
		}
		out[key] = config.Seconds(d)
		if d == limits[key].Default {
			out[key] = ""
		}
	}
	return out
}

// ownLimit is server's own value of a duration setting, if it has one.
// A stored value that does not read within the bounds counts as none.
func (b *Bridge) ownLimit(server, key string) (time.Duration, bool) {
	if server == "" {
		return 0, false
	}
	stored, err := b.Store.MCPSettings(context.Background(), server)
	if err != nil || stored[key] == "" {
		return 0, false
	}
	d, err := time.ParseDuration(stored[key])
	return d, err == nil && limits[key].In(d)
}

// callLimit bounds each request to server after the handshake: its own
// timeout, else MCP_CALL_TIMEOUT.
func (b *Bridge) callLimit(server string) time.Duration {
	if d, ok := b.ownLimit(server, SettingTimeout); ok {
		return d
	}
	return b.callTimeout()
}

// startLimit bounds a start of server plus its handshake: its own
// startup timeout, else MCP_CONNECT_TIMEOUT. It returns the cap's name
// for errors, empty for MCP_CONNECT_TIMEOUT.
func (b *Bridge) startLimit(server string) (time.Duration, string) {
	if d, ok := b.ownLimit(server, SettingStartupTimeout); ok {
		return d, ownCap(server, SettingStartupTimeout)
	}
	return b.ConnectTimeout, ""
}

// ownCap names a server's own timeout in an error, saying how to change it.
func ownCap(server, key string) string {
	return fmt.Sprintf("the %s of MCP server %s; change it with `tai mcp set %s %s=…`", key, server, server, key)
}

// ownCallLimit names server's own timeout in a timeout the client
// reports as MCP_CALL_TIMEOUT, which server's own limit replaced.
func (b *Bridge) ownCallLimit(server string, err error) error {
	var te *client.TimeoutError
	if !errors.As(err, &te) || te != err || te.Cap != "MCP_CALL_TIMEOUT" {
		return err
	}
	if _, ok := b.ownLimit(server, SettingTimeout); !ok {
		return err
	}
	return &client.TimeoutError{Method: te.Method, After: te.After, Cap: ownCap(server, SettingTimeout)}
}
