package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// maxName is the longest tool name tai gives a model; providers refuse
// longer ones.
const maxName = 64

// sanitize lower-cases s and turns anything outside [a-z0-9_] into '_'.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// namer assigns bridged names: mcp_<server>_<tool>, sanitized, with a
// numeric suffix for empties and collisions and a hash suffix to stay
// within maxName. The assignment depends only on the order of calls, which
// follows the servers' names and each server's own tool order, so names
// are stable from one run to the next.
type namer struct {
	taken func(string) bool
	used  map[string]bool
}

func newNamer(taken func(string) bool) *namer {
	if taken == nil {
		taken = func(string) bool { return false }
	}
	return &namer{taken: taken, used: map[string]bool{}}
}

func (n *namer) name(server, tool string) string {
	t := sanitize(tool)
	if strings.Trim(t, "_") == "" {
		t = "tool"
	}
	base := "mcp_" + sanitize(server) + "_" + t
	if len(base) > maxName {
		sum := sha256.Sum256([]byte(server + "\x00" + tool))
		base = base[:maxName-9] + "_" + hex.EncodeToString(sum[:4])
	}
	name := base
	for i := 2; n.used[name] || n.taken(name); i++ {
		suffix := "_" + strconv.Itoa(i)
		if len(base)+len(suffix) > maxName {
			name = base[:maxName-len(suffix)] + suffix
		} else {
			name = base + suffix
		}
	}
	n.used[name] = true
	return name
}
