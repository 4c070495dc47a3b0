package vault

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads the lower bound of an audit query: a duration back from
// now (30m, 24h, 7d) or a date or RFC 3339 time, in local time.
func ParseSince(s string, now time.Time) (time.Time, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(n); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q: use a duration (30m, 24h, 7d) or a date (2026-11-01)", s)
}
